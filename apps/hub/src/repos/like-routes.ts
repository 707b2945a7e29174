import type { Context } from "hono";
import { UnavailableError } from "../errors.js";
import type { RepoReadDeps } from "./read-routes.js";
import { assignedRepo, type RepoApiPath } from "./repo-assignment.js";

function engagementOf(deps: RepoReadDeps) {
  if (!deps.engagement) throw new UnavailableError("Likes are not enabled on this hub.");
  return deps.engagement;
}

/**
 * `POST` / `DELETE /api/{type}s/{id}/like` (huggingface_hub's like / unlike), and `GET` of it, which the
 * public hub has not: the repository page's like button reads its count and whether the caller likes it.
 * repoAssignment() checked that the caller may read the repository (a hidden one is a 404); liking also needs
 * a signed-in user (engagement-service.ts).
 */
export async function repoLike(deps: RepoReadDeps, c: Context, _target: RepoApiPath): Promise<Response> {
  const engagement = engagementOf(deps);
  const { repo } = assignedRepo(c);
  const actor = deps.access.actor(c);
  if (c.req.method === "POST") await engagement.like(actor, repo);
  else if (c.req.method === "DELETE") await engagement.unlike(actor, repo);
  return c.json(await engagement.likesOf(actor, repo));
}

/** `GET /api/{type}s/{id}/likers` (huggingface_hub's `list_repo_likers`): readers of the repository see who likes it. */
export async function repoLikers(deps: RepoReadDeps, c: Context, _target: RepoApiPath): Promise<Response> {
  return c.json(await engagementOf(deps).likers(assignedRepo(c).repo));
}
