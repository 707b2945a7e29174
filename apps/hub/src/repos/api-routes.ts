import type { Context, MiddlewareHandler } from "hono";
import { repoNotFound } from "../auth/authorize.js";
import { repoDiscussions } from "../discussions/discussions-routes.js";
import { xetTokenHandler } from "../lfs-xet/xet-token-routes.js";
import { askAccess, userAccessRequests } from "./access-requests-routes.js";
import { parseRepoApiPath, type RepoApiPath } from "./api-path.js";
import { repoCompare } from "./compare-routes.js";
import {
  type RepoReadDeps,
  repoCommits,
  repoInfo,
  repoPathsInfo,
  repoRefs,
  repoTree,
} from "./read-routes.js";
import { repoBranch, repoCommit, repoPreupload, repoSettings, repoTag } from "./write-routes.js";

type Handler = (deps: RepoReadDeps, c: Context, target: RepoApiPath) => Response | Promise<Response>;

/** Method and action -> handler; "" is the repository itself. */
const HANDLERS: Record<string, Handler> = {
  "GET ": repoInfo,
  "GET revision": repoInfo,
  "GET tree": repoTree,
  "POST paths-info": repoPathsInfo,
  "GET commits": repoCommits,
  "GET refs": repoRefs,
  "POST preupload": repoPreupload,
  "POST commit": repoCommit,
  "PUT settings": repoSettings,
  "POST branch": repoBranch,
  "DELETE branch": repoBranch,
  "POST tag": repoTag,
  "DELETE tag": repoTag,
  "POST ask-access": askAccess,
  "GET user-access-request": userAccessRequests,
  "POST user-access-request": userAccessRequests,
  "GET discussions": repoDiscussions,
  "POST discussions": repoDiscussions,
  "GET compare": repoCompare,
  "GET xet-write-token": xetTokenHandler("write"),
  "GET xet-read-token": xetTokenHandler("read"),
};

/** The routes this dispatcher answers, as "METHOD /api/{type}s/{id}[/action]" (the route inventory's names). */
export const REPO_API_ROUTES: readonly string[] = Object.keys(HANDLERS).map((key) => {
  const [method, action] = key.split(" ");
  return `${method} /api/{type}s/{id}${action ? `/${action}` : ""}`;
});

/**
 * `/api/{models|datasets|spaces}/{id}[/{action}/...]`: the repository API. Paths are split here rather than
 * by route patterns because ids have one or two segments and revisions may hold encoded slashes. A model
 * that is only a catalogue record (no repository) falls through to the models routes.
 */
export function repoApiRoutes(deps: RepoReadDeps): MiddlewareHandler {
  return async (c, next) => {
    const target = parseRepoApiPath(new URL(c.req.url).pathname);
    if (!target) return next();
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    const handler = HANDLERS[`${method} ${target.action ?? ""}`];
    if (!handler) return next();
    if (target.type === "model" && !target.action && !(await deps.repos.find("model", target.id))) {
      // A catalogue record without files is still answered by the models routes; nothing at all is the
      // public hub's RepoNotFound, which clients turn into RepositoryNotFoundError.
      if (await deps.store.models.get(target.id)) return next();
      throw repoNotFound(deps.access.actor(c), target.id);
    }
    return handler(deps, c, target);
  };
}
