import type { Context } from "hono";
import { z } from "zod";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import { queryBoolean, queryInteger, queryOne } from "../http/query.js";
import { parseInput } from "../http/validate.js";
import { isLfsOid } from "./lfs-pointer.js";
import { nextLink, type RepoReadDeps } from "./read-routes.js";
import { assignedRepo, type RepoApiPath } from "./repo-assignment.js";

/** Objects one deletion request may name (huggingface_hub sends them 1,000 at a time). */
const MAX_DELETIONS = 1000;

const Sha256 = z.string().refine(isLfsOid, { error: "must be a sha256 (64 lowercase hex digits)." });

/** The body of POST .../lfs-files/batch, as huggingface_hub's permanently_delete_lfs_files sends it. */
const DeletionBody = z.object({
  deletions: z.object({
    sha: z.array(Sha256).min(1).max(MAX_DELETIONS),
    rewriteHistory: z.boolean({ error: "must be a boolean." }).optional(),
  }),
});

/**
 * GET /api/{type}s/{id}/lfs-files: the LFS objects the repository's history holds (huggingface_hub's
 * list_lfs_files), newest first, `limit` (default and most 1,000) per page with a `Link` to the next.
 */
export async function repoLfsFiles(deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  if (target.rest.length > 0) throw new NotFoundError("Unknown LFS files path: use /lfs-files.");
  const { repo } = assignedRepo(c);
  const limit = queryInteger(c, "limit", { min: 1, max: 1000 }) ?? 1000;
  const cursor = queryOne(c, "cursor");
  const start = cursor ? Number(Buffer.from(cursor, "base64url").toString()) : 0;
  if (!Number.isInteger(start) || start < 0) throw new InvalidInputError("Invalid cursor.");
  const files = await deps.repos.lfsFiles(repo);
  if (start + limit < files.length) {
    nextLink(c, deps.publicUrl, "cursor", Buffer.from(String(start + limit)).toString("base64url"));
  }
  return c.json(files.slice(start, start + limit));
}

/**
 * POST /api/{type}s/{id}/lfs-files/batch (body `{deletions: {sha: [...], rewriteHistory}}`) and DELETE
 * /api/{type}s/{id}/lfs-files/{sha}?rewriteHistory=: permanently deletes LFS objects (huggingface_hub's
 * permanently_delete_lfs_files). `rewriteHistory` defaults to true, as the client's does.
 */
export async function repoLfsFilesDelete(
  deps: RepoReadDeps,
  c: Context,
  target: RepoApiPath,
): Promise<Response> {
  const { repo } = assignedRepo(c);
  const [name, ...extra] = target.rest;
  let sha256s: string[];
  let rewriteHistory: boolean;
  if (c.req.method === "POST") {
    if (name !== "batch" || extra.length > 0)
      throw new NotFoundError("Unknown LFS files path: POST /lfs-files/batch.");
    const body = parseInput(DeletionBody, await readJsonBody(c, 256 * 1024));
    sha256s = [...new Set(body.deletions.sha)];
    rewriteHistory = body.deletions.rewriteHistory ?? true;
  } else {
    if (!name || extra.length > 0) throw new NotFoundError("Name the object: DELETE /lfs-files/{sha256}.");
    sha256s = [parseInput(Sha256, name, { what: "The object id" })];
    rewriteHistory = queryBoolean(c, "rewriteHistory") ?? true;
  }
  const deletion = await deps.repos.deleteLfsFiles(repo, sha256s, { rewriteHistory });
  return c.json({
    deleted: deletion.deleted,
    rewrittenCommits: deletion.rewritten.size,
    movedRefs: deletion.movedRefs,
  });
}
