import type { Context } from "hono";
import { InvalidInputError } from "../errors.js";
import { parseJsonBody, readBodyBytes } from "../http/body.js";
import { requestStream } from "../http/request-stream.js";
import { isLfsOid } from "../repos/lfs-pointer.js";
import type { UploadGrant } from "./lfs-grants.js";
import type { LfsService } from "./lfs-service.js";

/**
 * The public hub's multipart LFS transfer: the batch answer's upload action points at a completion URL, its
 * header carries `chunk_size` and one signed URL per part ("00001", "00002"...). Each part is PUT to its URL
 * and stored as a blob of its own (its sha256 is its ETag), recorded as that upload's part; the completion
 * POST lists the parts' ETags, and the hub streams the recorded parts, in order, into the object's blob,
 * checking the object's sha256 and size. Part blobs nothing references are removed then; those of an abandoned upload are left to blob GC, which never takes
 * blobs younger than an upload URL's lifetime.
 */

/** What the multipart transfer needs of the LFS routes' dependencies. */
interface MultipartDeps {
  publicUrl: string;
  lfs: LfsService;
}

export const partCount = (size: number, chunk: number) => Math.max(1, Math.ceil(size / chunk));

function partSize(grant: UploadGrant, part: number): number {
  const chunk = grant.chunk!;
  return part < partCount(grant.size, chunk) ? chunk : grant.size - chunk * (part - 1);
}

/** The upload action of a multipart transfer for one object. */
export async function multipartUploadAction(deps: MultipartDeps, grant: UploadGrant, chunk: number) {
  const header: Record<string, string> = { chunk_size: String(chunk) };
  for (let part = 1; part <= partCount(grant.size, chunk); part++) {
    header[String(part).padStart(5, "0")] =
      `${deps.publicUrl}/api/lfs-upload/${await deps.lfs.signGrant({ ...grant, chunk, part })}`;
  }
  return {
    href: `${deps.publicUrl}/api/lfs-complete/${await deps.lfs.signGrant({ ...grant, chunk })}`,
    header,
  };
}

/**
 * PUT of one part: stored as its own blob and recorded as this upload's part (the completion assembles only
 * recorded parts); the ETag names it for the completion.
 */
export async function receivePart(
  deps: MultipartDeps,
  c: Context,
  grant: UploadGrant,
  now: number,
): Promise<Response> {
  const sha256 = await deps.lfs.receivePart(grant, requestStream(c), partSize(grant, grant.part!), now);
  c.header("ETag", `"${sha256}"`);
  return c.body(null, 200);
}

/** The completion POST: `{oid, parts: [{partNumber, etag}]}`. */
export async function completeMultipart(
  deps: MultipartDeps,
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
    if (partNumber !== index + 1 || !isLfsOid(sha256)) {
      throw new InvalidInputError(
        `Part ${index + 1}: expected {"partNumber": ${index + 1}, "etag": <its ETag>}.`,
      );
    }
    return sha256;
  });
  await deps.lfs.assemble(grant, parts, (part) => partSize(grant, part), now);
  return c.json({ success: true });
}
