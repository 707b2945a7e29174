import type { Context, MiddlewareHandler } from "hono";
import { HubError, InsufficientStorageError, InvalidInputError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import { requestStream } from "../http/request-stream.js";
import { createContentClaims } from "../repos/content-claims.js";
import type { RepoReadDeps } from "../repos/read-routes.js";
import { decodeSegment, findRepo, TYPE_SEGMENTS, URL_PREFIX } from "../repos/repo-target.js";
import type { RepoRecord, RepoType } from "../repos/repos-table.js";
import { commitRef } from "../repos/write-routes.js";
import { BlobMismatchError, isSha256 } from "../storage/blob-store.js";
import { openGrant, signGrant, UPLOAD_TTL_MS, type UploadGrant } from "./lfs-grants.js";
import { completeMultipart, multipartUploadAction, receivePart } from "./lfs-multipart.js";
import { issueXetToken, xetConnectionHeaders } from "./xet-token-routes.js";
import { XET_TOKEN_SECONDS } from "./xet-tokens.js";

/** `/{id}.git/info/lfs/objects/batch` and `/verify`, with the dataset and space forms. */
const LFS_URL = /^\/(?:(datasets|spaces)\/)?([^/]+(?:\/[^/]+)?)\.git\/info\/lfs\/objects\/(batch|verify)$/;
/** Where a granted upload is PUT: a signed, expiring URL (the LFS client sends no credentials there). */
const UPLOAD_URL = /^\/api\/lfs-upload\/([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;
/** Where a multipart upload is completed (signed as well). */
const COMPLETE_URL = /^\/api\/lfs-complete\/([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;
/** What the URLs above answer, as the route inventory names it. */
export const LFS_ROUTES = [
  "POST /{id}.git/info/lfs/objects/batch",
  "POST /{id}.git/info/lfs/objects/verify",
  "PUT /api/lfs-upload/{grant}",
  "POST /api/lfs-complete/{grant}",
] as const;
/** Objects larger than this go through the multipart transfer when the client offers it. */
export const DEFAULT_MULTIPART_CHUNK = 1024 * 1024 * 1024;

export interface LfsDeps extends RepoReadDeps {
  now?: () => number;
  /** Part size of multipart transfers (objects larger than it use them); default DEFAULT_MULTIPART_CHUNK. */
  multipartChunk?: number;
}

/**
 * The Git LFS batch API (basic and multipart transfers, lfs-multipart.ts): objects already stored are answered
 * without actions (the client skips them); others get an upload URL (or part URLs) and a verify URL. The upload streams into the blob store, checking
 * the sha256 and size as it goes: an object whose bytes do not match is refused and nothing is kept.
 */
export function lfsRoutes(deps: LfsDeps): MiddlewareHandler {
  const now = deps.now ?? Date.now;
  return async (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (c.req.method === "PUT") {
      const upload = UPLOAD_URL.exec(path);
      return upload ? receiveUpload(deps, c, upload[1]!, upload[2]!, now()) : next();
    }
    const complete = c.req.method === "POST" ? COMPLETE_URL.exec(path) : null;
    if (complete) {
      const grant = await openGrant(deps.store, complete[1]!, complete[2]!, now());
      if (!grant.chunk || grant.part) throw new InvalidInputError("Not a multipart completion URL.");
      return completeMultipart(deps, c, grant, now());
    }
    const match = c.req.method === "POST" ? LFS_URL.exec(path) : null;
    if (!match) return next();
    const type = TYPE_SEGMENTS[match[1] ?? "models"]!;
    const id = decodeSegment(match[2]!);
    c.header("Content-Type", "application/vnd.git-lfs+json");
    return match[3] === "batch" ? batch(deps, c, type, id, now()) : verify(deps, c, type, id);
  };
}

async function batch(deps: LfsDeps, c: Context, type: RepoType, id: string, now: number): Promise<Response> {
  const body = (await readJsonBody(c, 16 * 1024 * 1024)) as Record<string, unknown>;
  const operation = body?.operation;
  // Uploads come from writers and from anyone opening a pull request (the batch cannot tell which: objects
  // only reach a branch through a commit, which checks write access).
  const { repo, actor } = await findRepo(
    deps,
    c,
    type,
    id,
    operation === "download" ? "read-files" : "discuss",
  );
  if (!Array.isArray(body.objects)) throw new InvalidInputError('"objects" must be an array.');
  if (body.objects.length > 1000) throw new InvalidInputError("At most 1000 objects per batch.");
  const base = `${deps.publicUrl}/${URL_PREFIX[type]}${repo.id}.git/info/lfs/objects`;
  const xet =
    operation === "upload"
      ? xetTransfer(deps, repo, body, await deps.access.can(actor, "write", repo))
      : undefined;
  const claims = createContentClaims({ store: deps.store, blobs: deps.repos.blobs, access: deps.access });
  const transfers = Array.isArray(body.transfers) ? body.transfers : [];
  const chunk = deps.multipartChunk ?? DEFAULT_MULTIPART_CHUNK;
  let multipart = false;
  const objects = await Promise.all(
    body.objects.map(async (object: unknown) => {
      const { oid, size } = (object ?? {}) as { oid?: unknown; size?: unknown };
      if (!isSha256(oid) || typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) {
        return { oid: String(oid), size, error: { code: 422, message: "Invalid oid or size." } };
      }
      if (operation !== "upload") {
        return {
          oid,
          size,
          error: { code: 422, message: "Only uploads: files are downloaded through /resolve." },
        };
      }
      // Content this repository may reference already (content-claims.ts) needs no upload. Anything else,
      // stored elsewhere on the hub or not, gets the same answer: an upload, which proves the bytes.
      const claimed = await claims.claim(actor, repo, oid);
      if (claimed?.size === size) return { oid, size };
      if (xet) return { oid, size, ...xet.action };
      const grant: UploadGrant = { repo: repo.key, oid, size, expires: now + UPLOAD_TTL_MS };
      const useMultipart = size > chunk && transfers.includes("multipart");
      multipart ||= useMultipart;
      return {
        oid,
        size,
        authenticated: true,
        actions: {
          upload: {
            ...(useMultipart
              ? await multipartUploadAction(deps, grant, chunk)
              : { href: `${deps.publicUrl}/api/lfs-upload/${await signGrant(deps.store, grant)}` }),
            expires_in: UPLOAD_TTL_MS / 1000,
          },
          // No header here: an answer never echoes the caller's credential (huggingface_hub sends its own
          // token to the verify URL; git-lfs its credential helper's).
          verify: { href: `${base}/verify` },
        },
      };
    }),
  );
  return c.json({ transfer: xet ? "xet" : multipart ? "multipart" : "basic", objects, hash_algo: "sha256" });
}

/**
 * When the client offers the `xet` transfer (@huggingface/hub does by default), objects are uploaded to the
 * CAS instead: each upload action carries a write token, and its href is where to refresh it. The token is
 * for the branch when the caller may write it; a caller who may only open pull requests gets one for
 * pull-request refs (`refs/pr/*`), whatever ref it names.
 */
function xetTransfer(deps: LfsDeps, repo: RepoRecord, body: Record<string, unknown>, writer: boolean) {
  const transfers = Array.isArray(body.transfers) ? body.transfers : [];
  if (!transfers.includes("xet") || !deps.xetSigner) return undefined;
  const refName = (body.ref as { name?: unknown } | undefined)?.name;
  const branch = typeof refName === "string" && refName ? refName : "main";
  const connection = issueXetToken(deps, repo, "write", writer ? commitRef(branch) : "refs/pr/*");
  const href = `${deps.publicUrl}/api/${repo.type}s/${repo.id}/xet-write-token/${encodeURIComponent(branch)}`;
  return {
    action: {
      authenticated: true,
      actions: { upload: { href, header: xetConnectionHeaders(connection), expires_in: XET_TOKEN_SECONDS } },
    },
  };
}

async function receiveUpload(
  deps: LfsDeps,
  c: Context,
  payload: string,
  signature: string,
  now: number,
): Promise<Response> {
  const grant = await openGrant(deps.store, payload, signature, now);
  if (grant.part) return receivePart(deps, c, grant, now);
  const declared = c.req.header("Content-Length");
  if (declared !== undefined && Number(declared) !== grant.size) {
    throw new InvalidInputError(`The upload is ${declared} bytes, not the announced ${grant.size}.`);
  }
  try {
    await deps.repos.putBlob(requestStream(c), { sha256: grant.oid, size: grant.size });
  } catch (error) {
    if (error instanceof BlobMismatchError) throw new HubError(400, "invalid_input", error.message);
    if (error instanceof InsufficientStorageError) throw error;
    throw error;
  }
  await deps.store.repos.addLfsObject(grant.repo, grant.oid, grant.size, new Date(now).toISOString());
  return c.body(null, 200);
}

async function verify(deps: LfsDeps, c: Context, type: RepoType, id: string): Promise<Response> {
  const { repo } = await findRepo(deps, c, type, id, "discuss");
  const body = (await readJsonBody(c, 1024 * 1024)) as { oid?: unknown; size?: unknown };
  if (!isSha256(body?.oid)) throw new InvalidInputError("Invalid oid.");
  const stored = await deps.repos.blobs.head(body.oid);
  if (!stored || stored.size !== body.size || !(await deps.store.repos.lfsObject(repo.key, body.oid))) {
    throw new HubError(404, "not_found", `Object ${body.oid} was not uploaded (or has another size).`);
  }
  return c.json({ success: true });
}
