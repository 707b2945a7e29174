import type { Context } from "hono";
import { avatarPath } from "../accounts/public-shapes.js";
import { PermissionDeniedError } from "../auth/auth-errors.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { jsonObject, parseJsonBody, readBodyBytes } from "../http/body.js";
import { escapeHtml } from "../http/plain-text-html.js";
import { queryBoolean, queryInteger, queryOne } from "../http/query.js";
import { type RepoReadDeps, repoUrl } from "../repos/read-routes.js";
import type { RepoActor } from "../repos/repo-access.js";
import { assignedRepo, type RepoApiPath } from "../repos/repo-assignment.js";
import type { CommitRecord, RepoRecord } from "../repos/repo-records.js";
import { actorName } from "../repos/repo-target.js";
import { branchRef } from "../repos/revision.js";
import type { DiscussionEventRecord, DiscussionRecord } from "./discussion-records.js";
import type { PullRequests } from "./pull-requests.js";

type JsonObject = Record<string, unknown>;
const PAGE_SIZE = 50;
const BODY_LIMIT = 256 * 1024;
const MAX_COMMENT = 65_536;

/** A JSON object body, or `{}` when there is none (huggingface_hub posts merge and hide without a body). */
async function optionalJsonObject(c: Context): Promise<JsonObject> {
  const bytes = await readBodyBytes(c, BODY_LIMIT);
  if (bytes.byteLength === 0) return {};
  return jsonObject(parseJsonBody(bytes));
}

function text(value: unknown, field: string, limits: { min: number; max: number }): string {
  const trimmed = typeof value === "string" ? value.trim() : "";
  if (trimmed.length < limits.min || trimmed.length > limits.max) {
    throw new InvalidInputError(`"${field}" must be ${limits.min} to ${limits.max} characters.`);
  }
  return trimmed;
}

/** Renders authors and events in the public hub's shapes. */
function createViews(deps: RepoReadDeps, repo: RepoRecord) {
  const owner = repo.id.includes("/") ? repo.id.split("/")[0]! : "";
  const fullnames = new Map<string, string>();
  async function author(name: string) {
    if (!fullnames.has(name)) {
      fullnames.set(name, await deps.discussions.fullname(name));
    }
    return {
      name,
      fullname: fullnames.get(name)!,
      avatarUrl: avatarPath(name),
      type: "user" as const,
      isPro: false,
      isHf: false,
      isMod: false,
      isOwner: name.toLowerCase() === owner.toLowerCase(),
    };
  }

  async function event(record: DiscussionEventRecord) {
    const common = {
      id: record.id,
      type: record.type,
      createdAt: record.createdAt,
      author: await author(record.author),
    };
    switch (record.type) {
      case "comment": {
        const latest = record.edits[0] ?? { body: record.body, author: record.author, at: record.createdAt };
        return {
          ...common,
          data: {
            edited: record.edits.length > 0,
            hidden: record.hidden,
            latest: {
              raw: record.body,
              html: record.hidden ? "" : `<p>${escapeHtml(record.body)}</p>`,
              updatedAt: latest.at,
              author: await author(latest.author),
            },
            numEdits: Math.max(0, record.edits.length - 1),
            editors: [...new Set(record.edits.map((edit) => edit.author))],
            history: await Promise.all(
              record.edits.map(async (edit) => ({
                raw: edit.body,
                updatedAt: edit.at,
                author: await author(edit.author),
              })),
            ),
            reactions: [],
            isReport: false,
          },
        };
      }
      case "status-change":
        return { ...common, data: { status: record.body } };
      case "title-change":
        return { ...common, data: { from: record.previous ?? "", to: record.body } };
    }
  }

  async function commitEvent(commit: CommitRecord) {
    return {
      id: commit.oid.slice(0, 24),
      type: "commit" as const,
      createdAt: commit.createdAt,
      author: await author(commit.author),
      data: { subject: commit.title, oid: commit.oid },
    };
  }

  async function summary(discussion: DiscussionRecord) {
    return {
      num: discussion.num,
      title: discussion.title,
      status: discussion.status,
      isPullRequest: discussion.isPullRequest,
      createdAt: discussion.createdAt,
      author: await author(discussion.author),
      repo: { name: repo.id, type: repo.type },
      numComments: discussion.numComments,
      pinned: false,
      topReactions: [],
      url: `${repoUrl(deps.publicUrl, repo)}/discussions/${discussion.num}`,
    };
  }

  return { author, event, commitEvent, summary };
}

/** The discussion named by the path (`/discussions/{num}/...`), or 404. */
async function findDiscussion(deps: RepoReadDeps, repo: RepoRecord, rawNum: string | undefined) {
  const num = Number(rawNum);
  if (!rawNum || !/^\d{1,9}$/.test(rawNum) || num < 1)
    throw new InvalidInputError("Invalid discussion number.");
  const discussion = await deps.discussions.get(repo, num);
  if (!discussion) throw new NotFoundError(`Discussion #${num} not found in ${repo.id}.`);
  return discussion;
}

/** Authors act on their own discussions and comments; repository writers on everyone's. */
async function requireAuthorOrWriter(
  deps: RepoReadDeps,
  actor: RepoActor,
  repo: RepoRecord,
  author: string,
  what: string,
): Promise<void> {
  if (actor.kind === "user" && actor.user.name.toLowerCase() === author.toLowerCase()) return;
  if (await deps.access.can(actor, "write", repo)) return;
  throw new PermissionDeniedError(`Only its author or someone with write access to ${repo.id} can ${what}.`);
}

/** GET|POST /api/{type}s/{id}/discussions[/{num}[/...]]: see /work/notes/api-prs.md. */
export async function repoDiscussions(
  deps: RepoReadDeps,
  c: Context,
  target: RepoApiPath,
): Promise<Response> {
  const [num, resource, commentId, commentAction, ...extra] = target.rest;
  const reading = c.req.method === "GET";
  // Access ("read" for GET, "discuss" for POST) was checked by the route table's repoAssignment().
  const { repo, actor } = assignedRepo(c);
  const views = createViews(deps, repo);
  const prs = deps.discussions.pullRequests;
  if (extra.length) throw new NotFoundError("Unknown discussion endpoint.");
  if (reading) {
    if (num === undefined) return listDiscussions(deps, c, repo, views);
    if (resource !== undefined) throw new NotFoundError("Unknown discussion endpoint.");
    return discussionDetails(deps, c, repo, actor, await findDiscussion(deps, repo, num), views, prs);
  }
  if (num === undefined) return openDiscussion(deps, c, repo, actor, views);
  const discussion = await findDiscussion(deps, repo, num);
  const body = await optionalJsonObject(c);
  const now = new Date().toISOString();
  const name = actorName(actor);
  switch (`${resource}${commentAction ? `/${commentAction}` : ""}`) {
    case "comment": {
      if (commentId !== undefined) break;
      const comment = text(body.comment, "comment", { min: 1, max: MAX_COMMENT });
      const event = await deps.discussions.comment(repo, discussion.num, name, comment, now);
      return c.json({ newMessage: await views.event(event) });
    }
    case "title": {
      await requireAuthorOrWriter(deps, actor, repo, discussion.author, "rename this discussion");
      const title = text(body.title, "title", { min: 3, max: 200 });
      const event = await deps.discussions.rename(repo, discussion.num, {
        title,
        author: name,
        now,
      });
      return c.json({ newTitle: await views.event(event) });
    }
    case "status": {
      await requireAuthorOrWriter(deps, actor, repo, discussion.author, "change this discussion's status");
      if (body.status !== "open" && body.status !== "closed") {
        throw new InvalidInputError('"status" must be "open" or "closed".');
      }
      if (discussion.status === "merged") throw new InvalidInputError(`#${discussion.num} is merged.`);
      const comment =
        typeof body.comment === "string" && body.comment.trim() ? body.comment.trim() : undefined;
      const event = await deps.discussions.setStatus(repo, discussion.num, {
        status: body.status,
        author: name,
        now,
        ...(comment ? { comment: comment.slice(0, MAX_COMMENT) } : {}),
      });
      return c.json({ newStatus: await views.event(event) });
    }
    case "merge": {
      await deps.access.authorize(actor, "write", repo);
      const comment =
        typeof body.comment === "string" && body.comment.trim() ? body.comment.trim() : undefined;
      const { commitOid } = await prs.merge(repo, discussion, name, comment?.slice(0, MAX_COMMENT));
      const events = await deps.discussions.events(repo, discussion.num);
      const merged = events.findLast((event) => event.type === "status-change")!;
      return c.json({ newStatus: await views.event(merged), mergeCommitId: commitOid });
    }
    case "edit":
    case "hide":
      break;
    default: {
      if (resource !== "comment" || commentId === undefined) break;
      const existing = await deps.discussions.event(repo, discussion.num, commentId.toLowerCase());
      if (existing?.type !== "comment") throw new NotFoundError(`Comment ${commentId} not found.`);
      if (commentAction === "edit") {
        if (actor.kind !== "user" || actor.user.name.toLowerCase() !== existing.author.toLowerCase()) {
          throw new PermissionDeniedError("Only its author can edit a comment.");
        }
        if (existing.hidden) throw new InvalidInputError("A hidden comment cannot be edited.");
        const content = text(body.content, "content", { min: 1, max: MAX_COMMENT });
        const updated = await deps.discussions.editComment(repo, discussion.num, existing.id, {
          body: content,
          author: name,
          now,
        });
        return c.json({ updatedComment: await views.event(updated!) });
      }
      if (commentAction === "hide") {
        await requireAuthorOrWriter(deps, actor, repo, existing.author, "hide this comment");
        const updated = await deps.discussions.hideComment(repo, discussion.num, existing.id);
        return c.json({ updatedComment: await views.event(updated!) });
      }
    }
  }
  throw new NotFoundError("Unknown discussion endpoint.");
}

async function listDiscussions(
  deps: RepoReadDeps,
  c: Context,
  repo: RepoRecord,
  views: ReturnType<typeof createViews>,
): Promise<Response> {
  const page = queryInteger(c, "p", { min: 0, max: 100_000 }) ?? 0;
  const type = queryOne(c, "type") ?? "all";
  const status = queryOne(c, "status") ?? "all";
  if (!["all", "discussion", "pull_request"].includes(type)) {
    throw new InvalidInputError('"type" must be all, discussion or pull_request.');
  }
  if (!["all", "open", "closed"].includes(status))
    throw new InvalidInputError('"status" must be all, open or closed.');
  const author = queryOne(c, "author");
  const search = queryOne(c, "search");
  const result = await deps.discussions.list(
    repo,
    {
      ...(type === "all" ? {} : { isPullRequest: type === "pull_request" }),
      ...(status === "all" ? {} : { status: status as "open" | "closed" }),
      ...(author ? { author } : {}),
      ...(search ? { search } : {}),
    },
    { offset: page * PAGE_SIZE, limit: PAGE_SIZE },
  );
  return c.json({
    discussions: await Promise.all(result.items.map(views.summary)),
    count: result.total,
    start: page * PAGE_SIZE,
    numClosedDiscussions: result.closed,
  });
}

async function openDiscussion(
  deps: RepoReadDeps,
  c: Context,
  repo: RepoRecord,
  actor: RepoActor,
  views: ReturnType<typeof createViews>,
): Promise<Response> {
  const body = await optionalJsonObject(c);
  const title = text(body.title, "title", { min: 3, max: 200 });
  const description =
    typeof body.description === "string" ? body.description.trim().slice(0, MAX_COMMENT) : "";
  const isPullRequest = body.pullRequest === true;
  const targetRef = branchRef("main");
  const discussion = await deps.discussions.open({
    repoKey: repo.key,
    isPullRequest,
    title,
    author: actorName(actor),
    description,
    ...(isPullRequest
      ? { targetRef, baseOid: (await deps.repos.resolveOrThrow(repo, "main")).commitOid }
      : {}),
    now: new Date().toISOString(),
  });
  return c.json(await views.summary(discussion));
}

async function discussionDetails(
  deps: RepoReadDeps,
  c: Context,
  repo: RepoRecord,
  actor: RepoActor,
  discussion: DiscussionRecord,
  views: ReturnType<typeof createViews>,
  prs: PullRequests,
): Promise<Response> {
  const stored = await deps.discussions.events(repo, discussion.num);
  const commits = discussion.isPullRequest ? await prs.commits(repo, discussion) : [];
  const events = [
    ...(await Promise.all(stored.map(views.event))),
    ...(await Promise.all(commits.map(views.commitEvent))),
  ].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  const details: JsonObject = { ...(await views.summary(discussion)), events };
  if (discussion.isPullRequest) {
    details.changes = {
      base: discussion.targetRef ?? branchRef("main"),
      ...(discussion.mergeCommitOid ? { mergeCommitId: discussion.mergeCommitOid } : {}),
      baseOid: (await prs.baseOf(repo, discussion)) ?? null,
      headOid: (await deps.discussions.pullRequestHead(repo, discussion.num)) ?? null,
    };
    details.filesWithConflicts = await prs.conflicts(repo, discussion);
    if (queryBoolean(c, "diff")) {
      // A diff prints file contents (a pull request deleting a gated file prints all of it): gated as files are.
      await deps.access.authorize(actor, "read-files", repo);
      details.diff = prs.gitDiffText(await prs.diff(repo, discussion));
    }
  }
  return c.json(details);
}
