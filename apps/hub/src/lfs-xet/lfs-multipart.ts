import type { Context } from "hono";
import { HubError, InvalidInputError } from "../errors.js";
import { parseJsonBody, readBodyBytes } from "../http/body.js";
import { requestStream } from "../http/request-stream.js";
import type { RepoReadDeps } from "../repos/read-routes.js";
import { BlobMismatchError, isSha256 } from "../storage/blob-store.js";
import { signGrant, type UploadGrant } from "./lfs-grants.js";

/**
 * The public hub's multipart LFS transfer: the batch answer's upload action points at a completion URL, its
 * header carries `chunk_size` and one signed URL per part ("00001", "00002"...). Each part is PUT to its URL
 * and stored as a blob of its own (its sha256 is its ETag), recorded as that upload's part; the completion
 * POST lists the parts' ETags, and the hub streams the recorded parts, in order, into the object's blob,
 * checking the object's sha256 and size. Part blobs nothing references are removed then; those of an abandoned upload are left to blob GC, which never takes
 * blobs younger than an upload URL's lifetime.
 */

export const partCount = (size: number, chunk: number) => Math.max(1, Math.ceil(size / chunk));

function partSize(grant: UploadGrant, part: number): number {
  const chunk = grant.chunk!;
  return part < partCount(grant.size, chunk) ? chunk : grant.size - chunk * (part - 1);
}

/** The upload action of a multipart transfer for one object. */
export async function multipartUploadAction(deps: RepoReadDeps, grant: UploadGrant, chunk: number) {
  const header: Record<string, string> = { chunk_size: String(chunk) };
  for (let part = 1; part <= partCount(grant.size, chunk); part++) {
    header[String(part).padStart(5, "0")] =
      `${deps.publicUrl}/api/lfs-upload/${await signGrant(deps.store, { ...grant, chunk, part })}`;
  }
  return {
    href: `${deps.publicUrl}/api/lfs-complete/${await signGrant(deps.store, { ...grant, chunk })}`,
    header,
  };
}

/**
 * PUT of one part: stored as its own blob and recorded as this upload's part (the completion assembles only
 * recorded parts); the ETag names it for the completion.
 */
export async function receivePart(
  deps: RepoReadDeps,
  c: Context,
  grant: UploadGrant,
  now: number,
): Promise<Response> {
  const expected = partSize(grant, grant.part!);
  try {
    const info = await deps.repos.putBlob(requestStream(c), { size: expected });
    await deps.store.uploadParts.record(
      grant.repo,
      grant.oid,
      grant.part!,
      info.sha256,
      new Date(now).toISOString(),
    );
    c.header("ETag", `"${info.sha256}"`);
    return c.body(null, 200);
  } catch (error) {
    if (error instanceof BlobMismatchError)
      throw new HubError(400, "invalid_input", `Part ${grant.part}: ${error.message}`);
    throw error;
  }
}

/** The completion POST: `{oid, parts: [{partNumber, etag}]}`. */
export async function completeMultipart(
  deps: RepoReadDeps,
  c: Context,
  grant: UploadGrant,
  now: number,
): Promise<Response> {
  const body = parseJsonBody(await readBodyBytes(c, 4 * 1024 * 1024)) as { oid?: unknown; parts?: unknown };
  if (body?.oid !== grant.oid)
    throw new InvalidInputError("The completion names another object than its URL.");
  const count = partCount(grant.size, grant.chunk!);
  if (!Array.isArray(body.parts) || body.parts.length !== count) {
    throw new InvalidInputError(`Expected the ETags of all ${count} parts.`);
  }
  const parts = body.parts.map((entry: unknown, index: number) => {
    const { partNumber, etag } = (entry ?? {}) as { partNumber?: unknown; etag?: unknown };
    const sha256 = typeof etag === "string" ? etag.replace(/^W\//, "").replace(/"/g, "") : "";
    if (partNumber !== index + 1 || !isSha256(sha256)) {
      throw new InvalidInputError(
        `Part ${index + 1}: expected {"partNumber": ${index + 1}, "etag": <its ETag>}.`,
      );
    }
    return sha256;
  });
  // Each part must be what this upload's own part URL received: naming another blob by its sha256 (another
  // repository's object, a Xet xorb) is refused, whatever the hub stores.
  for (const [index, sha256] of parts.entries()) {
    const received = await deps.store.uploadParts.received(grant.repo, grant.oid, index + 1, sha256);
    const stored = received ? await deps.repos.blobs.head(sha256) : undefined;
    if (stored?.size !== partSize(grant, index + 1)) {
      throw new InvalidInputError(
        `Part ${index + 1} was not uploaded (or has another size): upload it again.`,
      );
    }
  }
  const blobs = deps.repos.blobs;
  async function* assembled() {
    for (const sha256 of parts) yield* await blobs.get(sha256);
  }
  try {
    await deps.repos.putBlob(assembled(), { sha256: grant.oid, size: grant.size });
  } catch (error) {
    if (error instanceof BlobMismatchError) throw new HubError(400, "invalid_input", error.message);
    throw error;
  }
  await deps.store.repos.addLfsObject(grant.repo, grant.oid, grant.size, new Date(now).toISOString());
  await deps.store.uploadParts.forget(grant.repo, grant.oid);
  // The one reference count of blob GC (commits, uploads, xorbs, other uploads' parts) decides what goes.
  for (const sha256 of new Set(parts)) {
    if (sha256 !== grant.oid && !(await deps.store.blobReferences.isReferenced(sha256))) {
      await blobs.delete(sha256);
    }
  }
  return c.json({ success: true });
}
