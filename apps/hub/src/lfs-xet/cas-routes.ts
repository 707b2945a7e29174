import { Readable } from "node:stream";
import { type Context, Hono } from "hono";
import {
  ForbiddenError,
  HubError,
  InvalidInputError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
} from "../errors.js";
import { readBodyBytes } from "../http/body.js";
import { parseRange } from "../http/byte-range.js";
import { answersToSocket, fileResponseBody } from "../http/file-response-body.js";
import type { HubEnv } from "../http/hub-env.js";
import { requestStream } from "../http/request-stream.js";
import type { XetQuotaCheck } from "../limits/storage-quotas.js";
import { CasBusyError, CasRejectedError, type CasService, toReconstructionV2 } from "./cas-service.js";
import { isHashHex } from "./hashes.js";
import { type XetGrant, type XetSigner, XetTokenError } from "./xet-tokens.js";
import { MAX_XORB_BYTES } from "./xorb.js";

/** Where the CAS API sits under the hub's public URL; the token endpoints hand out `${publicUrl}${CAS_PATH}`. */
export const CAS_PATH = "/xet-cas";
const MAX_SHARD_BYTES = 64 * 1024 * 1024;

export interface XetCasDeps {
  cas: CasService;
  signer: XetSigner;
  /** Whether a repository's history holds this content (its commits name the sha256). */
  holdsContent(repoKey: number, sha256: string): Promise<boolean>;
  /**
   * Throws when the policy refuses a content's bytes to this repository (SCAN_POLICY=block and found unsafe:
   * scanning/scan-service.ts). Unset: every content is served.
   */
  assertServable?(repoKey: number, sha256: string): Promise<void>;
  /** Storage quotas (limits/storage-quotas.ts), asked before a xorb's or shard's bytes are kept; unset: none. */
  quotas?: XetQuotaCheck;
  /**
   * Storage buckets (buckets/), whose tokens carry a bucket's key: what a bucket holds, and the files a shard
   * uploaded with its token registered (what it may then add). Unset: bucket tokens are refused.
   */
  buckets?: {
    holds(bucketKey: number, xetHash: string): Promise<boolean>;
    uploaded(bucketKey: number, xetHashes: readonly string[]): Promise<void>;
  };
}

class CasBadRequestError extends HubError {
  constructor(message: string) {
    super(400, "bad_request", message);
  }
}

/**
 * The token of a CAS call, of the scope it needs: a token carries exactly one (a write token, which a pull
 * request's author may hold for a repository it cannot read, never reads).
 */
function grantOf(c: Context, deps: XetCasDeps, scope: "read" | "write" | "any"): XetGrant {
  const header = c.req.header("Authorization") ?? "";
  const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
  if (!token) throw new UnauthorizedError("A Xet access token is required (Authorization: Bearer).");
  let grant: XetGrant;
  try {
    grant = deps.signer.verify(token);
  } catch (error) {
    if (error instanceof XetTokenError) throw new UnauthorizedError(error.message);
    throw error;
  }
  if (scope === "write" && grant.scope !== "write") {
    throw new ForbiddenError("This Xet token has read scope: uploads need a write token.");
  }
  if (scope === "read" && grant.scope !== "read") {
    throw new ForbiddenError("This Xet token has write scope: downloads need a read token (xet-read-token).");
  }
  return grant;
}

/**
 * Who uploads, for the file sha256 chains (file-sha256-chains.ts): one token's session (its repository or
 * bucket, and its expiry, which a client's token refresh changes). Not secret, and grants nothing.
 */
function uploaderOf(grant: XetGrant): string {
  return `${grant.bucket ? "bucket" : "repo"}:${grant.repoKey}:${grant.expiresAt}`;
}

function bucketsOf(deps: XetCasDeps): NonNullable<XetCasDeps["buckets"]> {
  if (!deps.buckets)
    throw new ForbiddenError("This hub serves no storage buckets: the token is not valid here.");
  return deps.buckets;
}

function hashParam(c: Context, name: string): string {
  const value = c.req.param(name) ?? "";
  if (!isHashHex(value))
    throw new InvalidInputError(`"${value.slice(0, 80)}" is not a hash (64 lowercase hex digits).`);
  return value;
}

class CasUnavailableError extends HubError {
  constructor(message: string) {
    super(503, "service_unavailable", message);
  }
}

async function rejected<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CasRejectedError) throw new CasBadRequestError(error.message);
    if (error instanceof CasBusyError) throw new CasUnavailableError(error.message);
    throw error;
  }
}

/** The CAS API of the Xet protocol (specification: api), served by the hub itself. */
export function xetCasRoutes(deps: XetCasDeps): Hono<HubEnv> {
  const app = new Hono<HubEnv>();

  app.post("/v1/xorbs/:prefix/:hash", async (c) => {
    const grant = grantOf(c, deps, "write");
    if (c.req.param("prefix") !== "default")
      throw new InvalidInputError("The xorb prefix must be 'default'.");
    const hash = hashParam(c, "hash");
    const declared = Number(c.req.header("Content-Length") ?? Number.NaN);
    if (declared > MAX_XORB_BYTES) throw new PayloadTooLargeError(MAX_XORB_BYTES);
    // A xorb stored already adds no bytes; otherwise the quota is asked before the body is read, with the
    // declared length (without one, the most a xorb may be).
    // Quotas count repositories' storage: a bucket's token (whose key is no repository's) is not asked.
    const quotas = grant.bucket ? undefined : deps.quotas;
    if (quotas && !(await deps.cas.xorb(hash))) {
      await quotas.assertXorbRoom(grant.repoKey, Number.isFinite(declared) ? declared : MAX_XORB_BYTES);
    }
    const inserted = await rejected(() =>
      deps.cas.uploadXorb(
        hash,
        requestStream(c),
        Number.isFinite(declared) ? declared : undefined,
        uploaderOf(grant),
      ),
    );
    if (inserted && quotas) {
      const stored = await deps.cas.xorb(hash);
      await quotas.xorbStored(grant.repoKey, hash, stored?.size ?? declared);
    }
    return c.json({ was_inserted: inserted });
  });

  app.post("/v1/shards", async (c) => {
    const grant = grantOf(c, deps, "write");
    const body = await readBodyBytes(c, MAX_SHARD_BYTES);
    if (grant.bucket) {
      const buckets = bucketsOf(deps);
      const files = await rejected(() => deps.cas.uploadShard(body, undefined, undefined, uploaderOf(grant)));
      await buckets.uploaded(grant.repoKey, files);
    } else {
      await rejected(() => deps.cas.uploadShard(body, grant.repoKey, deps.quotas, uploaderOf(grant)));
    }
    return c.json({ result: 1 });
  });

  // Deduplication is part of an upload: either scope may ask (the answer's chunk hashes are keyed, so only
  // holders of the bytes can match them).
  app.get("/v1/chunks/:prefix/:hash", async (c) => {
    grantOf(c, deps, "any");
    // The specification names `default-merkledb`; hf_xet 1.6 sends `default`.
    if (!["default-merkledb", "default"].includes(c.req.param("prefix"))) {
      throw new InvalidInputError("The chunk prefix must be 'default-merkledb' (or 'default').");
    }
    const shard = await deps.cas.dedupShard(hashParam(c, "hash"));
    if (!shard) throw new NotFoundError("This chunk is not known to the CAS.");
    return c.body(shard as Uint8Array<ArrayBuffer>, 200, { "Content-Type": "application/octet-stream" });
  });

  // Version 1 answers `fetch_info` (hf_xet); version 2 groups the fetches per xorb (@huggingface/hub).
  for (const version of ["v1", "v2"] as const) {
    app.get(`/${version}/reconstructions/:file`, async (c) => {
      const grant = grantOf(c, deps, "read");
      const hash = hashParam(c, "file");
      // A file this repository registered, or whose (checked) sha256 one of its commits names.
      const file = await deps.cas.file(hash);
      // A bucket's token reads what the bucket holds; a repository's, what it registered or its history names.
      const readable =
        file !== undefined &&
        (grant.bucket
          ? await bucketsOf(deps).holds(grant.repoKey, hash)
          : (await deps.cas.fileInRepo(hash, grant.repoKey)) ||
            (file.sha256 !== undefined && (await deps.holdsContent(grant.repoKey, file.sha256))));
      if (!file || !readable) throw new NotFoundError(`File ${hash} is not in this repository.`);
      if (file.sha256 !== undefined && !grant.bucket) await deps.assertServable?.(grant.repoKey, file.sha256);
      const range = parseRange(c.req.header("Range"), file.size);
      if (range.kind === "unsatisfiable") {
        return c.json({ error: "The requested range starts past the end of the file." }, 416);
      }
      const [from, to] = range.kind === "range" ? [range.start, range.end] : [0, file.size - 1];
      const plan = await deps.cas.reconstruction(file, from, to);
      return c.json(version === "v1" ? plan : toReconstructionV2(plan));
    });
  }

  // Presigned ranges of xorbs, as the reconstruction's fetch_info URLs point to (no bearer token: the
  // signature in the query is the authorization, for the signed bytes only, and a Range header is required).
  app.get("/v1/fetch/:hash", async (c) => {
    const hash = hashParam(c, "hash");
    const granted = deps.signer.verifyFetch(hash, c.req.query());
    if (!granted) {
      throw new ForbiddenError("This xorb URL is invalid or has expired: query the reconstruction again.");
    }
    const xorb = await deps.cas.xorb(hash);
    if (!xorb) throw new NotFoundError(`Xorb ${hash} is not stored.`);
    const range = parseRange(c.req.header("Range"), xorb.size);
    if (range.kind !== "range") throw new InvalidInputError("A Range header within the xorb is required.");
    if (range.start < granted.start || range.end > granted.end) {
      throw new ForbiddenError(
        `This URL grants bytes ${granted.start}-${granted.end} of the xorb only: query the reconstruction again.`,
      );
    }
    // Every hf_xet download (and a mirror's Xet pull) reads its bytes here, range by range. From the disk to a
    // socket they go in reused buffers, as /resolve's do: fresh buffers through Readable.toWeb cost the
    // upstream 6.2-6.5 CPU s per GiB of xorb ranges against 1.4-1.9 for the same file served whole
    // (bench/results/2026-11-30-mirror-floor.md).
    const localPath = answersToSocket(c) ? deps.cas.xorbLocalPath(xorb) : undefined;
    const body = localPath
      ? fileResponseBody(localPath, range)
      : (Readable.toWeb(await deps.cas.xorbRange(xorb, range.start, range.end)) as ReadableStream);
    return new Response(body, {
      status: 206,
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(range.end - range.start + 1),
        "Content-Range": `bytes ${range.start}-${range.end}/${xorb.size}`,
      },
    });
  });

  return app;
}
