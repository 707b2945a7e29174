import type { Context } from "hono";
import { type Actor, ANONYMOUS } from "../auth/actor.js";
import type { Authorizer, RepoResource } from "../auth/authorize.js";
import { ForbiddenError } from "../errors.js";
import type { RepoRecord, RepoType } from "./repos-table.js";

/** Who is calling (auth/actor.ts). */
export type RepoActor = Actor;

/**
 * What a caller wants to do with a repository: see its metadata, read its files (gated repositories need
 * granted access), discuss (open discussions and pull requests), write (commits, branches, uploads), or
 * administer it (settings, move, delete).
 */
export type RepoAction = "read" | "read-files" | "discuss" | "write" | "admin";

/** The seam between repository routes and the accounts module: routes never decide access themselves. */
export interface RepoAccess {
  actor(c: Context): RepoActor;
  /** Throws the error the public hub answers with; a private repository the actor may not see is a 404. */
  authorize(actor: RepoActor, action: RepoAction, repo: RepoRecord): Promise<void>;
  /** The same decision as a boolean. */
  can(actor: RepoActor, action: RepoAction, repo: RepoRecord): Promise<boolean>;
  /** Whether the actor may create a repository of this type in this namespace. */
  authorizeCreate(actor: RepoActor, type: RepoType, owner: string): Promise<void>;
}

export function repoResource(
  repo: Pick<RepoRecord, "type" | "id" | "private" | "gated"> & Pick<Partial<RepoRecord>, "mirrorOf">,
): RepoResource {
  const slash = repo.id.indexOf("/");
  return {
    kind: "repo",
    type: repo.type,
    owner: slash === -1 ? "" : repo.id.slice(0, slash),
    name: repo.id.slice(slash + 1),
    private: repo.private,
    gated: repo.gated || false,
    ...(repo.mirrorOf ? { mirrored: true } : {}),
  };
}

/** Writes to a mirrored repository: refused for everyone (it changes only by following upstream). */
export class ReadOnlyMirrorError extends ForbiddenError {
  constructor(repo: Pick<RepoRecord, "id" | "type"> & { mirrorOf?: string }) {
    const prefix = repo.type === "model" ? "" : `${repo.type}s/`;
    super(`${prefix}${repo.id} is a read-only mirror of ${repo.mirrorOf}/${prefix}${repo.id}.`);
  }
}

/** Repository access decided by the accounts module's one authorize() (auth/authorize.ts). */
export function accountsRepoAccess(authorizer: Authorizer): RepoAccess {
  return {
    actor: (c) => (c.get("actor") as Actor | undefined) ?? ANONYMOUS,
    async authorize(actor, action, repo) {
      if (repo.mirrorOf && action === "write") {
        // Who may not see it hears RepoNotFound first, as for any repository.
        await authorizer.authorize(actor, "read", repoResource(repo));
        throw new ReadOnlyMirrorError(repo);
      }
      await authorizer.authorize(actor, action === "admin" ? "manage" : action, repoResource(repo));
    },
    can: async (actor, action, repo) =>
      !(repo.mirrorOf && action === "write") &&
      authorizer.can(actor, action === "admin" ? "manage" : action, repoResource(repo)),
    authorizeCreate: (actor, _type, owner) =>
      authorizer.authorize(actor, "write", { kind: "namespace", name: owner }),
  };
}
