import type { Context } from "hono";
import { ACCESS_REQUEST_STATUSES, type AccessRequest, type AccessRequestStatus } from "../accounts/types.js";
import { InvalidInputError, NotFoundError, UnauthorizedError } from "../errors.js";
import { jsonObject, parseJsonBody, readBodyBytes } from "../http/body.js";
import type { RepoReadDeps } from "./read-routes.js";
import { assignedRepo, type RepoApiPath } from "./repo-assignment.js";

type JsonObject = Record<string, unknown>;

/** A request as huggingface_hub's list_*_access_requests reads it. */
function requestView(request: AccessRequest) {
  return {
    user: {
      user: request.user.name,
      fullname: request.user.fullname,
      email: request.user.email ?? undefined,
    },
    status: request.status,
    timestamp: request.createdAt,
    fields: request.fields,
  };
}

async function jsonOrFormBody(c: Context): Promise<JsonObject> {
  const bytes = await readBodyBytes(c, 64 * 1024);
  if (bytes.length === 0) return {};
  if ((c.req.header("Content-Type") ?? "").includes("json")) return jsonObject(parseJsonBody(bytes));
  return Object.fromEntries(new URLSearchParams(Buffer.from(bytes).toString()));
}

/**
 * POST /api/{type}s/{id}/ask-access: the caller asks for a gated repository's files. `gated: "auto"` accepts
 * at once; `"manual"` leaves the request pending until the owner decides.
 */
export async function askAccess(deps: RepoReadDeps, c: Context, _target: RepoApiPath): Promise<Response> {
  const { repo, actor } = assignedRepo(c);
  if (actor.kind !== "user") throw new UnauthorizedError("Sign in (or send a token) to ask for access.");
  if (!repo.gated)
    throw new InvalidInputError(`${repo.id} is not gated: its files are open to all who can see it.`);
  const fields = Object.fromEntries(
    Object.entries(await jsonOrFormBody(c))
      .filter(([, value]) => typeof value === "string")
      .slice(0, 50)
      .map(([key, value]) => [key.slice(0, 100), String(value).slice(0, 2000)]),
  );
  const request = await deps.accessRequests.ask(repo, actor.user.id, fields);
  return c.json(requestView(request));
}

/**
 * GET /api/{type}s/{id}/ask-access: whether the caller reads the files (`access`: an owner does without
 * asking) and their own request (`null` when they never asked), so a model page shows the form, or the
 * request pending, accepted or rejected. The public hub shows this on its pages only; `request` keeps
 * requestView's shape.
 */
export async function myAccessRequest(
  deps: RepoReadDeps,
  c: Context,
  _target: RepoApiPath,
): Promise<Response> {
  const { repo, actor } = assignedRepo(c);
  if (actor.kind !== "user")
    throw new UnauthorizedError("Sign in (or send a token) to see your access request.");
  const request = repo.gated ? await deps.accessRequests.mine(repo, actor.user.id) : undefined;
  return c.json({
    gated: repo.gated,
    access: await deps.access.can(actor, "read-files", repo),
    request: request ? requestView(request) : null,
  });
}

/**
 * `/api/{type}s/{id}/user-access-request/...` for the repository's administrators: GET `{status}` lists
 * requests, POST `handle` `{user, status}` decides one, POST `grant` `{user}` gives access outright.
 */
export async function userAccessRequests(
  deps: RepoReadDeps,
  c: Context,
  target: RepoApiPath,
): Promise<Response> {
  const { repo, actor } = assignedRepo(c);
  const [what] = target.rest;
  if (c.req.method === "GET") {
    if (!ACCESS_REQUEST_STATUSES.includes(what as AccessRequestStatus)) {
      throw new NotFoundError(`Use /user-access-request/${ACCESS_REQUEST_STATUSES.join("|")}.`);
    }
    const requests = await deps.accessRequests.list(repo, what as AccessRequestStatus);
    return c.json(requests.map(requestView));
  }
  if (what !== "handle" && what !== "grant")
    throw new NotFoundError("Use /user-access-request/handle or /grant.");
  const body = await jsonOrFormBody(c);
  if (typeof body.user !== "string")
    throw new NotFoundError(`No user named ${JSON.stringify(String(body.user ?? "").slice(0, 100))}.`);
  const status = what === "grant" ? "accepted" : body.status;
  if (!ACCESS_REQUEST_STATUSES.includes(status as AccessRequestStatus)) {
    throw new InvalidInputError(`"status" must be one of ${ACCESS_REQUEST_STATUSES.join(", ")}.`);
  }
  await deps.accessRequests.decide(repo, body.user, {
    status: status as AccessRequestStatus,
    grant: what === "grant",
    decidedBy: actor.kind === "user" ? actor.user.id : null,
  });
  return c.json({ success: true });
}
