import { createHash } from "node:crypto";
import type { Context } from "hono";
import { z } from "zod";
import { HubError, InvalidInputError, RevisionNotFoundError } from "../errors.js";
import { jsonObject, parseJsonBody, readBodyBytes, readJsonBody } from "../http/body.js";
import { queryBoolean } from "../http/query.js";
import { ndjsonValues, requestStream } from "../http/request-stream.js";
import { parseInput } from "../http/validate.js";
import { isObject } from "../is-object.js";
import { type CommitOperation, pullRequestNumber } from "./commit-engine.js";
import { lfsPatterns } from "./gitattributes.js";
import { gitignoreMatcher, MAX_GITIGNORE_BYTES } from "./gitignore.js";
import { isLfsOid, LFS_SIZE_THRESHOLD } from "./lfs-pointer.js";
import { type RepoReadDeps, repoUrl } from "./read-routes.js";
import type { RepoAction, RepoActor } from "./repo-access.js";
import { assignedRepo, type RepoApiPath } from "./repo-assignment.js";
import { parseFolderPath, parseRepoPath } from "./repo-path.js";
import type { Gated, RepoRecord } from "./repo-records.js";
import { actorName } from "./repo-target.js";

type JsonObject = Record<string, unknown>;

const JSON_LIMIT = 1024 * 1024;
/** An inline (base64) file of a commit: what is not LFS, with base64's overhead. */
const MAX_NDJSON_LINE = Math.ceil((LFS_SIZE_THRESHOLD * 4) / 3) + 64 * 1024;
const MAX_OPERATIONS = 25_000;

/** The ref a commit writes to: a branch name, `refs/heads/x`, or a pull request's `refs/pr/N`. */
export function commitRef(revision: string): string {
  if (revision.startsWith("refs/heads/") || /^refs\/pr\/\d+$/.test(revision)) return revision;
  if (revision.startsWith("refs/")) throw new InvalidInputError(`Cannot commit to ${revision}.`);
  return `refs/heads/${revision}`;
}

/** The body of PUT .../settings; `visibility` is huggingface_hub's newer spelling of `private`. */
const SettingsBody = z.object({
  private: z.boolean({ error: "must be a boolean." }).optional(),
  visibility: z.enum(["private", "public"], { error: 'must be "private" or "public".' }).optional(),
  gated: z
    .union([z.literal(false), z.enum(["auto", "manual"])], { error: 'must be false, "auto" or "manual".' })
    .optional(),
});

/** The body of POST .../branch/{branch}, when there is one. */
const BranchBody = z.object({
  startingPoint: z.string({ error: "must be a revision." }).nullish(),
  emptyBranch: z.boolean({ error: "must be a boolean." }).nullish(),
  overwrite: z.boolean({ error: "must be a boolean." }).nullish(),
});

/** The body of POST .../tag/{revision}. */
const TagBody = z.object({ tag: z.string({ error: "is required." }) });

/** PUT /api/{type}s/{id}/settings: `private`, `gated` (false | "auto" | "manual"). */
export async function repoSettings(deps: RepoReadDeps, c: Context, _target: RepoApiPath): Promise<Response> {
  const { repo } = assignedRepo(c);
  const body = parseInput(SettingsBody, await readJsonBody(c, JSON_LIMIT));
  const settings: { private?: boolean; gated?: Gated } = {};
  if (body.private !== undefined) settings.private = body.private;
  if (body.visibility !== undefined) settings.private = body.visibility === "private";
  if (body.gated !== undefined) settings.gated = body.gated;
  const updated = await deps.repos.updateSettings(repo, settings);
  return c.json({ private: updated.private, gated: updated.gated });
}

/** POST|DELETE /api/{type}s/{id}/branch/{branch} (body `{startingPoint, emptyBranch, overwrite}`). */
export async function repoBranch(deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  const { repo, actor } = assignedRepo(c);
  const name = target.rest.join("/");
  if (c.req.method === "DELETE") {
    await deps.repos.deleteBranch(repo, name);
    return c.json({ success: true });
  }
  const bytes = await readBodyBytes(c, 64 * 1024);
  const body = parseInput(BranchBody, bytes.length === 0 ? {} : jsonObject(parseJsonBody(bytes)));
  if (body.emptyBranch && body.startingPoint) {
    throw new InvalidInputError("An empty branch has no starting point: send one or the other.");
  }
  await deps.repos.createBranch(repo, name, {
    startingPoint: body.startingPoint ?? undefined,
    empty: body.emptyBranch ?? false,
    overwrite: body.overwrite ?? false,
    author: actorName(actor),
  });
  return c.json({ success: true });
}

/** The body of POST .../super-squash/{ref}. */
const SquashBody = z.object({ message: z.string({ error: "must be a string." }).nullish() });

/**
 * POST /api/{type}s/{id}/super-squash/{branch} (body `{message}`): the branch (or `refs/pr/N`) becomes one
 * commit of its current files, titled `message` (huggingface_hub's super_squash_history).
 */
export async function repoSuperSquash(
  deps: RepoReadDeps,
  c: Context,
  target: RepoApiPath,
): Promise<Response> {
  const { repo, actor } = assignedRepo(c);
  const name = target.rest.join("/") || "main";
  const ref = commitRef(name);
  const bytes = await readBodyBytes(c, 64 * 1024);
  const body = parseInput(SquashBody, bytes.length === 0 ? {} : jsonObject(parseJsonBody(bytes)));
  const title = body.message?.trim() || `Super-squash branch '${name}'`;
  const squashed = await deps.repos.squashHistory(repo, ref, title.slice(0, 1000), actorName(actor));
  return c.json({ commitOid: squashed.oid });
}

/** POST /api/{type}s/{id}/tag/{revision} (body `{tag, message}`); DELETE /api/{type}s/{id}/tag/{tag}. */
export async function repoTag(deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  const { repo } = assignedRepo(c);
  const name = target.rest.join("/");
  if (c.req.method === "DELETE") {
    await deps.repos.deleteTag(repo, name);
    return c.json({ success: true });
  }
  const body = parseInput(TagBody, await readJsonBody(c, JSON_LIMIT));
  await deps.repos.createTag(repo, body.tag, name || "main");
  return c.json({ success: true });
}

/** What a preupload needs: to write the branch, or (for a pull request) to discuss the repository. */
export function preuploadAccess(c: Context, target: RepoApiPath): RepoAction {
  const revision = target.rest.join("/") || "main";
  const forPullRequest = (queryBoolean(c, "create_pr") ?? false) || pullRequestNumber(revision) !== undefined;
  return forPullRequest ? "discuss" : "write";
}

/** What a commit needs: anyone who may discuss may open a pull request, and add commits to their own. */
export function commitAccess(c: Context, target: RepoApiPath): RepoAction {
  const ref = commitRef(target.rest.join("/") || "main");
  return (queryBoolean(c, "create_pr") ?? false) || pullRequestNumber(ref) ? "discuss" : "write";
}

/** POST /api/{type}s/{id}/preupload/{rev}: which files go to LFS, which are ignored, what is there now. */
export async function repoPreupload(deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  const revision = target.rest.join("/") || "main";
  const { repo } = assignedRepo(c);
  const body = await readJsonBody(c, 16 * JSON_LIMIT);
  if (!isObject(body) || !Array.isArray(body.files)) throw new InvalidInputError('"files" must be an array.');
  if (body.files.length > 1000) throw new InvalidInputError("At most 1000 files per preupload call.");
  const head = await deps.repos.resolve(repo, revision);
  const patterns =
    typeof body.gitAttributes === "string"
      ? lfsPatterns(body.gitAttributes)
      : head
        ? await deps.repos.lfsPatternsAt(repo, head.commitOid)
        : [];
  // The .gitignore the client sends (one it is committing) wins over the one the revision already has.
  const gitignore =
    typeof body.gitIgnore === "string"
      ? body.gitIgnore.slice(0, MAX_GITIGNORE_BYTES)
      : head
        ? await deps.repos.gitignoreAt(repo, head.commitOid)
        : undefined;
  const ignored = gitignore ? gitignoreMatcher(gitignore) : () => false;
  const files = [];
  for (const entry of body.files as unknown[]) {
    if (!isObject(entry)) throw new InvalidInputError("Each file must be {path, size, sample}.");
    const path = parseRepoPath(entry.path);
    const size = Number(entry.size);
    if (!Number.isSafeInteger(size) || size < 0) throw new InvalidInputError(`Invalid size for ${path}.`);
    const sample = Buffer.from(typeof entry.sample === "string" ? entry.sample : "", "base64");
    const lfs = deps.repos.isLfsPath(path, size, sample, patterns);
    const existing = head ? await deps.repos.fileAt(repo, head.commitOid, path) : undefined;
    files.push({
      path,
      uploadMode: lfs ? "lfs" : "regular",
      shouldIgnore: ignored(path),
      ...(existing ? { oid: existing.lfs ? existing.sha256 : existing.blobOid } : {}),
    });
  }
  return c.json({ files, ...(head ? { commitOid: head.commitOid } : {}) });
}

/**
 * POST /api/{type}s/{id}/commit/{rev}: NDJSON (`header`, `file`, `lfsFile`, `deletedFile`, `deletedFolder`)
 * read line by line; inline files are stored as they arrive, LFS files must have been uploaded (and verified)
 * before. Nothing reaches the branch unless every operation is valid: the commit itself is one transaction.
 */
export async function repoCommit(deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  const ref = commitRef(target.rest.join("/") || "main");
  const createPr = queryBoolean(c, "create_pr") ?? false;
  const prNum = pullRequestNumber(ref);
  // Access was checked by commitAccess(); a pull request's commits are its author's (or a writer's) only.
  const { repo, actor } = assignedRepo(c);
  if (prNum !== undefined && !createPr) await requirePullRequestPusher(deps, repo, actor, prNum);
  const operations: CommitOperation[] = [];
  // The commit's inline files so far: each is checked against the quota with those before it.
  const inline: { sha256: string; size: number }[] = [];
  let header: JsonObject | undefined;
  const items = (c.req.header("Content-Type") ?? "").includes("application/json")
    ? legacyJsonItems(await readJsonBody(c, 64 * JSON_LIMIT))
    : ndjsonValues(requestStream(c), MAX_NDJSON_LINE);
  for await (const item of items) {
    if (!isObject(item) || typeof item.key !== "string" || !isObject(item.value)) {
      throw new InvalidInputError('Each commit line must be {"key": ..., "value": {...}}.');
    }
    if (operations.length >= MAX_OPERATIONS) {
      throw new InvalidInputError(`At most ${MAX_OPERATIONS} operations per commit.`);
    }
    const value = item.value;
    switch (item.key) {
      case "header":
        header = value;
        break;
      case "file":
        operations.push(await inlineFile(deps, value, repo, inline));
        break;
      case "lfsFile":
        operations.push(await lfsFile(deps, repo, actor, value));
        break;
      case "deletedFile":
        operations.push({ kind: "deleteFile", path: parseRepoPath(value.path) });
        break;
      case "deletedFolder":
        operations.push({ kind: "deleteFolder", path: parseFolderPath(value.path) });
        break;
      default:
        throw new InvalidInputError(`Unknown commit operation "${String(item.key).slice(0, 40)}".`);
    }
  }
  if (!header) throw new InvalidInputError("The commit has no header line.");
  const title = typeof header.summary === "string" ? header.summary.trim() : "";
  if (!title) throw new InvalidInputError("A commit summary is required.");
  const parentCommit = header.parentCommit;
  if (parentCommit !== undefined && parentCommit !== null && typeof parentCommit !== "string") {
    throw new InvalidInputError('"parentCommit" must be a commit id.');
  }
  const result = await deps.repos.commit(repo, {
    ref,
    parentCommit: parentCommit ?? undefined,
    title: title.slice(0, 1000),
    description: typeof header.description === "string" ? header.description : "",
    author: actorName(actor),
    operations,
    createPr,
  });
  const url = repoUrl(deps.publicUrl, repo);
  return c.json({
    success: true,
    commitOid: result.commit.oid,
    commitUrl: `${url}/commit/${result.commit.oid}`,
    ...(result.pullRequest ? { pullRequestUrl: `${url}/discussions/${result.pullRequest}` } : {}),
  });
}

/** Commits to `refs/pr/N` come from the pull request's author or a repository writer. */
async function requirePullRequestPusher(
  deps: RepoReadDeps,
  repo: RepoRecord,
  actor: RepoActor,
  num: number,
): Promise<void> {
  const pr = await deps.discussions.get(repo, num);
  if (!pr?.isPullRequest) throw new RevisionNotFoundError(`refs/pr/${num}`);
  if (actor.kind === "user" && actor.user.name.toLowerCase() === pr.author.toLowerCase()) return;
  await deps.access.authorize(actor, "write", repo);
}

async function inlineFile(
  deps: RepoReadDeps,
  value: JsonObject,
  repo: RepoRecord,
  inline: { sha256: string; size: number }[],
): Promise<CommitOperation> {
  const path = parseRepoPath(value.path);
  if (typeof value.content !== "string") throw new InvalidInputError(`No content for ${path}.`);
  const encoding = value.encoding ?? "utf-8";
  const content =
    encoding === "base64"
      ? Buffer.from(value.content, "base64")
      : encoding === "utf-8" || encoding === "utf8"
        ? Buffer.from(value.content)
        : undefined;
  if (!content) throw new InvalidInputError(`Unknown encoding for ${path}: use "base64" or "utf-8".`);
  if (content.byteLength > LFS_SIZE_THRESHOLD) {
    throw new InvalidInputError(
      `${path} is larger than 10 MB: upload it through LFS (preupload says so) instead of inline.`,
    );
  }
  if (deps.quotas) {
    inline.push({ sha256: createHash("sha256").update(content).digest("hex"), size: content.byteLength });
    await deps.quotas.assertRoom(repo, inline);
  }
  const { path: _, ...file } = await deps.repos.putRegular(path, content);
  return { kind: "put", path, file };
}

async function lfsFile(
  deps: RepoReadDeps,
  repo: RepoRecord,
  actor: RepoActor,
  value: JsonObject,
): Promise<CommitOperation> {
  const path = parseRepoPath(value.path);
  const oid = value.oid;
  if ((value.algo ?? "sha256") !== "sha256" || !isLfsOid(oid)) {
    throw new InvalidInputError(`Invalid LFS oid for ${path}: expected a sha256.`);
  }
  // Uploaded for this repository, in its history, or readable by the caller elsewhere: content-claims.ts.
  const claims = deps.claims;
  const stored = await claims.claim(actor, repo, oid);
  if (!stored) throw new LfsObjectMissingError(path, oid);
  if (value.size !== undefined && Number(value.size) !== stored.size) {
    throw new InvalidInputError(`The LFS object of ${path} is ${stored.size} bytes, not ${value.size}.`);
  }
  // An upload to this repository is checked again in the commit's transaction (GC prunes abandoned ones).
  const uploaded = !stored.elsewhere && !stored.xetFile;
  return { kind: "put", path, file: deps.repos.lfsFile(path, oid, stored.size), uploaded };
}

class LfsObjectMissingError extends HubError {
  constructor(path: string, oid: string) {
    super(
      400,
      "invalid_input",
      `Your push was rejected because an LFS pointer pointed to a file that does not exist. For instance, this can happen if you used git push --no-verify to push your changes. Offending file: - ${path} (sha256:${oid})`,
    );
  }
}

/** The older JSON commit body (`{summary, description, files, lfsFiles, deletedFiles}`) as NDJSON items. */
function* legacyJsonItems(body: unknown): Generator<unknown> {
  if (!isObject(body)) throw new InvalidInputError("Expected a JSON object.");
  yield {
    key: "header",
    value: { summary: body.summary, description: body.description, parentCommit: body.parentCommit },
  };
  const list = (field: string) => (Array.isArray(body[field]) ? (body[field] as unknown[]) : []);
  for (const value of list("files")) yield { key: "file", value };
  for (const value of list("lfsFiles")) yield { key: "lfsFile", value };
  for (const value of list("deletedFiles")) yield { key: "deletedFile", value };
  for (const value of list("deletedFolders")) yield { key: "deletedFolder", value };
}

/** The Xet token endpoints when the hub runs without Xet storage (no signer configured). */
export function xetUnavailable(): never {
  throw new HubError(
    501,
    "XetNotSupported",
    "This hub does not support the Xet storage protocol yet: set HF_HUB_DISABLE_XET=1 so that huggingface_hub uploads and downloads through Git LFS.",
  );
}
