import type { Context } from "hono";
import { authenticateHubToken } from "../auth/token-service.js";
import { GatedRepoError, RepoNotFoundError, UnauthorizedError } from "../errors.js";
import type { RepoRecord, RepoType } from "../store/repos-table.js";
import type { Store } from "../store/store.js";

/** Who is calling: nobody, or a named account. */
export type RepoActor = { kind: "anonymous" } | { kind: "user"; name: string };

/**
 * What a caller wants to do with a repository: see its metadata, read its files (gated repositories need
 * granted access), write (commits, branches, uploads), or administer it (settings, move, delete).
 */
export type RepoAction = "read" | "read-files" | "write" | "admin";

/** The seam between repository routes and the accounts module: routes never decide access themselves. */
export interface RepoAccess {
  actor(c: Context): RepoActor;
  /** Throws the error the public hub answers with; a private repository the actor may not see is a 404. */
  authorize(actor: RepoActor, action: RepoAction, repo: RepoRecord): void;
  /** Whether the actor may create a repository of this type in this namespace. */
  authorizeCreate(actor: RepoActor, type: RepoType, owner: string): void;
}

/**
 * Access with the hub's tokens only, until accounts (users, organizations, gated-access grants) exist: any
 * valid hub token may write, read private repositories and download gated files; anonymous callers read
 * public ones. Replaced by the accounts module's authorize().
 */
export function tokenRepoAccess(store: Store): RepoAccess {
  return {
    actor(c) {
      const header = c.req.header("Authorization");
      if (!header) return { kind: "anonymous" };
      const token = authenticateHubToken(store, header, "read");
      return { kind: "user", name: token.name.replace(/[^A-Za-z0-9-]/g, "-") };
    },
    authorize(actor, action, repo) {
      if (actor.kind === "user") return;
      if (repo.private) throw new RepoNotFoundError(repo.id);
      if (action === "read") return;
      if (action === "read-files") {
        if (repo.gated) throw new GatedRepoError(repo.id, false);
        return;
      }
      throw new UnauthorizedError("You must be authenticated to change this repository.");
    },
    authorizeCreate(actor) {
      if (actor.kind === "anonymous") {
        throw new UnauthorizedError("You must be authenticated to create a repository.");
      }
    },
  };
}
