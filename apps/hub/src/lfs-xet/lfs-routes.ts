import type { Context, Handler, MiddlewareHandler } from "hono";
import { z } from "zod";
import { HubError, InvalidInputError, NotFoundError } from "../errors.js";
import { readJsonBody } from "../http/body.js";
import { requestStream } from "../http/request-stream.js";
import { parseInput } from "../http/validate.js";
import { isLfsOid } from "../repos/lfs-pointer.js";
import type { RepoReadDeps } from "../repos/read-routes.js";
import type { RepoAction } from "../repos/repo-access.js";
import { assignedRepo, type RepoEnv } from "../repos/repo-assignment.js";
import type { RepoRecord } from "../repos/repo-records.js";
import { commitRef } from "../repos/write-routes.js";
import { UPLOAD_TTL_MS, type UploadGrant } from "./lfs-grants.js";
import { completeMultipart, multipartUploadAction, receivePart } from "./lfs-multipart.js";
import type { LfsService } from "./lfs-service.js";
import { issueXetToken, xetConnectionHeaders } from "./xet-token-routes.js";
import { XET_TOKEN_SECONDS } from "./xet-tokens.js";

/** The body of a verify call: the object the client uploaded. */
const VerifyBody = z.object({
  oid: z.string().refine(isLfsOid, { error: "must be a sha256 (64 lowercase hex digits)." }),
  size: z.unknown(),
});

/** A signed upload or completion URL's last segment: `{payload}.{signature}` (lfs-grants.ts). */
const GRANT = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;
/** Objects larger than this go through the multipart transfer when the client offers it. */
export const DEFAULT_MULTIPART_CHUNK = 1024 * 1024 * 1024;

export interface LfsDeps extends RepoReadDeps {
  lfs: LfsService;
  now?: () => number;
  /** Part size of multipart transfers (objects larger than it use them); default DEFAULT_MULTIPART_CHUNK. */
  multipartChunk?: number;
  /**
   * The batch API's downloads (git/lfs-downloads.ts): an object the repository's commits reference gets its
   * `actions`, anything else undefined. Without it downloads are refused (files come through /resolve).
   */
  lfsDownloads?: {
    action(repo: RepoRecord, oid: string, publicUrl: string, now: number): Promise<object | undefined>;
  };
}

/** The context of the LFS routes: the repository routes' plus the batch request, read before access is checked. */
export type LfsEnv = {
  Variables: RepoEnv["Variables"] & { lfsBatch?: Record<string, unknown> };
};

/** Git LFS answers (errors included) carry the LFS media type. */
export const lfsMediaType: MiddlewareHandler = async (c, next) => {
  c.header("Content-Type", "application/vnd.git-lfs+json");
  await next();
};

/** Reads the batch request: its operation decides the access the batch needs (batchAccess). */
export const readBatchRequest: MiddlewareHandler<LfsEnv> = async (c, next) => {
  const body = await readJsonBody(c, 16 * 1024 * 1024);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidInputError("Expected a JSON object.");
  }
  c.set("lfsBatch", body as Record<string, unknown>);
  await next();
};

/**
 * Downloads need the files; uploads come from writers and from anyone opening a pull request (the batch cannot
 * tell which: objects only reach a branch through a commit, which checks write access).
 */
export function batchAccess(c: Context<LfsEnv>): RepoAction {
  return c.get("lfsBatch")?.operation === "download" ? "read-files" : "discuss";
}

/**
 * The Git LFS batch API (basic and multipart transfers, lfs-multipart.ts): objects already stored are answered
 * without actions (the client skips them); others get an upload URL (or part URLs) and a verify URL. The upload
 * streams into the blob store, checking the sha256 and size as it goes: an object whose bytes do not match is
 * refused and nothing is kept.
 */
export function lfsBatch(deps: LfsDeps): Handler<LfsEnv> {
  const now = deps.now ?? Date.now;
  return (c) => batch(deps, c, c.get("lfsBatch") ?? {}, now());
}

/** POST `.../info/lfs/objects/verify`: the object was uploaded for this repository, with this size. */
export function lfsVerify(deps: LfsDeps): Handler<RepoEnv> {
  return (c) => verify(deps, c);
}

/** PUT /api/lfs-upload/{grant}: a granted upload (or one part of a multipart upload). */
export function lfsUpload(deps: LfsDeps): Handler {
  const now = deps.now ?? Date.now;
  return (c) => {
    const [payload, signature] = grantOf(c);
    return receiveUpload(deps, c, payload, signature, now());
  };
}

/**
 * POST /api/lfs-verify/{grant}: the granted object was uploaded for the grant's repository with its size
 * (the batch's verify action; the signed grant, not a credential, names the repository).
 */
export function lfsVerifyGrant(deps: LfsDeps): Handler {
  const now = deps.now ?? Date.now;
  return async (c) => {
    const [payload, signature] = grantOf(c);
    const grant = await deps.lfs.openGrant(payload, signature, now());
    const body = parseInput(VerifyBody, await readJsonBody(c, 1024 * 1024));
    if (
      grant.part ||
      body.oid !== grant.oid ||
      !(await deps.lfs.uploaded({ key: grant.repo }, grant.oid, body.size))
    ) {
      throw new HubError(404, "not_found", `Object ${body.oid} was not uploaded (or has another size).`);
    }
    return c.json({ success: true });
  };
}

/** POST /api/lfs-complete/{grant}: the parts of a multipart upload are all there. */
export function lfsComplete(deps: LfsDeps): Handler {
  const now = deps.now ?? Date.now;
  return async (c) => {
    const [payload, signature] = grantOf(c);
    const grant = await deps.lfs.openGrant(payload, signature, now());
    if (!grant.chunk || grant.part) throw new InvalidInputError("Not a multipart completion URL.");
    return completeMultipart(deps, c, grant, now());
  };
}

function grantOf(c: Context): [string, string] {
  const match = GRANT.exec(c.req.param("grant") ?? "");
  if (!match) throw new NotFoundError(`No route for ${c.req.method} ${c.req.path}.`);
  return [match[1]!, match[2]!];
}

async function batch(
  deps: LfsDeps,
  c: Context,
  body: Record<string, unknown>,
  now: number,
): Promise<Response> {
  const operation = body.operation;
  const { repo, actor } = assignedRepo(c);
  if (!Array.isArray(body.objects)) throw new InvalidInputError('"objects" must be an array.');
  if (body.objects.length > 1000) throw new InvalidInputError("At most 1000 objects per batch.");
  const xet =
    operation === "upload"
      ? xetTransfer(deps, repo, body, await deps.access.can(actor, "write", repo))
      : undefined;
  const transfers = Array.isArray(body.transfers) ? body.transfers : [];
  const chunk = deps.multipartChunk ?? DEFAULT_MULTIPART_CHUNK;
  let multipart = false;
  // What this batch hands out uploads for: checked against the owner's storage quota before any is given.
  const uploads: { sha256: string; size: number }[] = [];
  const objects = await Promise.all(
    body.objects.map(async (object: unknown) => {
      const { oid, size } = (object ?? {}) as { oid?: unknown; size?: unknown };
      if (!isLfsOid(oid) || typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) {
        return { oid: String(oid), size, error: { code: 422, message: "Invalid oid or size." } };
      }
      if (operation === "download" && deps.lfsDownloads) {
        // Only what this repository's commits reference, whoever else holds the same bytes.
        const actions = await deps.lfsDownloads.action(repo, oid, deps.publicUrl, now);
        if (!actions) return { oid, size, error: { code: 404, message: "Object does not exist." } };
        return { oid, size, authenticated: true, actions };
      }
      if (operation !== "upload") {
        return {
          oid,
          size,
          error: { code: 422, message: 'The operation must be "upload" or "download".' },
        };
      }
      // Content this repository may reference already (content-claims.ts) needs no upload. Anything else,
      // stored elsewhere on the hub or not, gets the same answer: an upload, which proves the bytes.
      const claimed = await deps.lfs.claim(actor, repo, oid);
      if (claimed?.size === size) return { oid, size };
      uploads.push({ sha256: oid, size });
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
              : { href: `${deps.publicUrl}/api/lfs-upload/${await deps.lfs.signGrant(grant)}` }),
            expires_in: UPLOAD_TTL_MS / 1000,
          },
          // Signed, as the upload URL: an answer never echoes the caller's credential, and git-lfs sends none
          // to an action of an `authenticated` object (huggingface_hub's own token is ignored there).
          verify: { href: `${deps.publicUrl}/api/lfs-verify/${await deps.lfs.signGrant(grant)}` },
        },
      };
    }),
  );
  await deps.quotas?.assertRoom(repo, uploads);
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
  const grant = await deps.lfs.openGrant(payload, signature, now);
  if (grant.part) return receivePart(deps, c, grant, now);
  const declared = c.req.header("Content-Length");
  if (declared !== undefined && Number(declared) !== grant.size) {
    throw new InvalidInputError(`The upload is ${declared} bytes, not the announced ${grant.size}.`);
  }
  await deps.lfs.receiveObject(grant, requestStream(c), now);
  return c.body(null, 200);
}

async function verify(deps: LfsDeps, c: Context): Promise<Response> {
  const { repo } = assignedRepo(c);
  const body = parseInput(VerifyBody, await readJsonBody(c, 1024 * 1024));
  if (!(await deps.lfs.uploaded(repo, body.oid, body.size))) {
    throw new HubError(404, "not_found", `Object ${body.oid} was not uploaded (or has another size).`);
  }
  return c.json({ success: true });
}
