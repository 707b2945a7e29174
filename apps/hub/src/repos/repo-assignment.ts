import type { Context, MiddlewareHandler } from "hono";
import { repoNotFound } from "../auth/authorize.js";
import { InvalidInputError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import type { RepoAction, RepoActor } from "./repo-access.js";
import type { RepoRecord, RepoType } from "./repo-records.js";
import type { KnownRef } from "./repo-service.js";
import { findOrMirror, type RepoTargetDeps, TYPE_SEGMENTS, withoutDemoCopy } from "./repo-target.js";
import { refCandidates, splitRevision } from "./revision.js";

/**
 * What a repository route's URL names, from its Hono parameters (repo-routes.ts): the type (`:type` of
 * `/api/{type}s/...`, or `:prefix` datasets|spaces of `/datasets/{id}/...`, models without), the id (`:name`
 * or `:namespace/:name`, a trailing `.git` dropped), and the segments after the action (`:revision`, then
 * `:path` split on "/"). Hono decodes each parameter once, so `refs%2Fpr%2F1` stays one revision.
 */
export interface RepoApiPath {
  type: RepoType;
  id: string;
  /** The route's action (`tree`, `commit`...); undefined for the repository itself. */
  action?: string;
  /** Decoded segments after the action: a revision, then a path inside the repository. */
  rest: string[];
}

/** The repository a request names, found and authorized once by repoAssignment(). */
export interface AssignedRepo {
  repo: RepoRecord;
  actor: RepoActor;
  /** Found under a former id (the repository was moved). */
  moved: boolean;
  target: RepoApiPath;
  /** The revision the URL names, resolved (routes declared with `revision`). */
  revision?: AssignedRevision;
  /** A ref's commit read with the repository's row, for a handler's own resolve() (repository info). */
  knownRef?: KnownRef;
}

export interface AssignedRevision {
  /** As the URL names it: `main`, `refs/pr/1`, a commit id. */
  name: string;
  commitOid: string;
  /** The full ref name, when the revision named one. */
  ref?: string;
  /** The decoded segments after the revision: a path inside the repository. */
  path: string[];
}

/** The context of the repository routes: the hub's variables plus the assigned repository. */
export type RepoEnv = {
  Variables: HubEnv["Variables"] & {
    /** Unset only on `GET /api/models/{id}` of a model that is a catalogue record without files. */
    repository?: AssignedRepo;
  };
};

export function repoTarget(c: Context, action?: string): RepoApiPath {
  const { type, prefix, namespace, name, revision, path } = c.req.param() as Record<
    string,
    string | undefined
  >;
  const bare = name!.endsWith(".git") ? name!.slice(0, -".git".length) : name!;
  return {
    type: TYPE_SEGMENTS[type ?? prefix ?? "models"]!,
    id: namespace === undefined ? bare : `${namespace}/${bare}`,
    action,
    rest: revision === undefined ? [] : [revision, ...(path === undefined ? [] : path.split("/"))],
  };
}

/** The access a route needs: fixed, or decided from the request (a commit to a pull request: "discuss"). */
export type AccessOf =
  | RepoAction
  | ((c: Context<RepoEnv>, target: RepoApiPath) => RepoAction | Promise<RepoAction>);

export interface AssignmentOptions {
  /** The route's action name, handed to the handler in `target.action`. */
  action?: string;
  /**
   * When the repository does not exist but this says the id is still known elsewhere (a model that is only
   * a catalogue record), nothing is assigned and the handler passes the request on.
   */
  knownElsewhere?: (type: RepoType, id: string) => Promise<boolean>;
  /**
   * The first segments after the action are a revision (`refs/pr/N` may come unencoded, splitRevision):
   * resolved here, RevisionNotFound when unknown; `required` is the error when the URL names none. With
   * `redirectsMoved`, the route answers a moved repository with a redirect to its new id: its revision is
   * resolved there, not here.
   */
  revision?: { required: string; redirectsMoved?: boolean };
}

/**
 * The one repository middleware (as gitea's RepoAssignment): finds the repository the URL names (a moved one
 * under its former id), checks the caller's access once and puts both on the context. A missing repository
 * and a private one the caller may not see answer alike: RepoNotFound, which clients turn into
 * RepositoryNotFoundError.
 */
export function repoAssignment(
  deps: RepoTargetDeps,
  access: AccessOf,
  options: AssignmentOptions = {},
): MiddlewareHandler<RepoEnv> {
  return async (c, next) => {
    const target = repoTarget(c, options.action);
    // Decided first: a malformed revision is refused before the repository is looked up, as before.
    const action = typeof access === "function" ? await access(c, target) : access;
    const actor = deps.access.actor(c);
    // The ref the request will resolve first (its revision's, else main's, which repository info reads) is
    // read with the repository's row: one query where there were two.
    const named = options.revision ? splitRevision(target.rest).revision : undefined;
    const alongRef = refCandidates(named ?? "main")[0];
    let found: Awaited<ReturnType<typeof deps.repos.find>> = await deps.repos.find(
      target.type,
      target.id,
      alongRef,
    );
    if (!found) {
      // A local record elsewhere (a catalogue model without files) wins over upstream's repository too.
      if (options.knownElsewhere && (await options.knownElsewhere(target.type, target.id))) return next();
      // Upstream is asked only to read: a write to an id that is not here is a RepoNotFound, as without a mirror.
      found =
        action === "write" || action === "admin"
          ? undefined
          : await findOrMirror(deps, target.type, target.id, actor);
      if (!found) throw repoNotFound(actor, target.id);
    } else if (action !== "write" && action !== "admin") {
      found = await withoutDemoCopy(deps, found);
    }
    await deps.access.authorize(actor, action, found.repo);
    let repo = found.repo;
    const reads = action !== "write" && action !== "admin";
    /** A mirrored repository's revision, imported or re-resolved upstream once its name is stale. */
    const followUpstream = async (name: string) => {
      const current = await deps.mirror?.ensureRevision(repo, name);
      if (!current) return;
      // Upstream gated it, or made it private, since: the caller is asked again under the new settings.
      if (current.private !== repo.private || current.gated !== repo.gated) {
        await deps.access.authorize(actor, action, current);
      }
      repo = current;
    };
    // Read with this very record only: a mirror's revision may have moved since, a demo copy been replaced.
    const knownRef = repo === found.repo && !repo.mirrorOf ? found.knownRef : undefined;
    let revision: AssignedRevision | undefined;
    if (options.revision && !(found.moved && options.revision.redirectsMoved)) {
      const split = splitRevision(target.rest);
      if (split.revision === undefined) throw new InvalidInputError(options.revision.required);
      if (repo.mirrorOf && reads) await followUpstream(split.revision);
      const resolved = await deps.repos.resolveOrThrow(repo, split.revision, knownRef);
      revision = { name: split.revision, ...resolved, path: split.rest };
    } else if (repo.mirrorOf && reads) {
      // Its info and refs (no revision in the URL) follow upstream's main within the revision TTL.
      await followUpstream("main");
    }
    c.set("repository", { repo, actor, moved: found.moved, target, revision, knownRef });
    await next();
  };
}

/** The revision repoAssignment() resolved; a route declared without `revision` is a wiring error. */
export function assignedRevision(c: Context): AssignedRevision {
  const { revision } = assignedRepo(c);
  if (!revision) throw new Error(`${c.req.routePath} is served without repoAssignment()'s revision.`);
  return revision;
}

/** The repository repoAssignment() put on the context; a route without that middleware is a wiring error. */
export function assignedRepo(c: Context): AssignedRepo {
  const assigned = (c as Context<RepoEnv>).get("repository");
  if (!assigned) throw new Error(`${c.req.routePath} is served without repoAssignment().`);
  return assigned;
}
