import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { UnauthorizedError } from "../errors.js";
import type { Store } from "../store/store.js";

const SECRET_KEY = "lfs-upload-secret";
/** How long an upload (or part, or completion) URL stays valid. Blob GC never collects younger blobs. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** What a signed LFS URL lets its holder do: upload one object (or one part of it) to one repository. */
export interface UploadGrant {
  repo: number;
  oid: string;
  size: number;
  expires: number;
  /** Multipart transfers: the part size of every part but the last. */
  chunk?: number;
  /** Multipart transfers: which part (1-based) this URL receives. */
  part?: number;
}

/**
 * The signing key of upload URLs: kept in the database so that every replica (and a restarted hub) accepts
 * the URLs another one handed out.
 */
async function uploadSecret(store: Store): Promise<Buffer> {
  const secret = await store.meta.getOrCreate(SECRET_KEY, randomBytes(32).toString("hex"));
  return Buffer.from(secret, "hex");
}

const hmac = (secret: Buffer, payload: string) =>
  createHmac("sha256", secret).update(payload).digest("base64url");

/** `payload.signature`, for a URL path segment (the LFS client sends no credentials to these URLs). */
export async function signGrant(store: Store, grant: UploadGrant): Promise<string> {
  const payload = Buffer.from(JSON.stringify(grant)).toString("base64url");
  return `${payload}.${hmac(await uploadSecret(store), payload)}`;
}

/** The grant a signed token carries; 401 when forged or expired. */
export async function openGrant(
  store: Store,
  payload: string,
  signature: string,
  now: number,
): Promise<UploadGrant> {
  const expected = Buffer.from(hmac(await uploadSecret(store), payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new UnauthorizedError("Invalid upload URL: ask the LFS batch API for a new one.");
  }
  const grant = JSON.parse(Buffer.from(payload, "base64url").toString()) as UploadGrant;
  if (grant.expires < now) throw new UnauthorizedError("This upload URL has expired: ask for a new one.");
  return grant;
}
