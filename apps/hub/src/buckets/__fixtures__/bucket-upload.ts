import { casRequest, sampleUpload } from "../../lfs-xet/__fixtures__/xet-upload.js";
import { serializeShard } from "../../lfs-xet/shard.js";

/** A bucket's Xet token, as the hub hands it out; undefined when refused (with the status). */
export async function bucketXetToken(
  hubUrl: string,
  hubToken: string | undefined,
  bucket: string,
  scope: "read" | "write",
): Promise<{ status: number; token?: string }> {
  const response = await fetch(`${hubUrl}/api/buckets/${bucket}/xet-${scope}-token`, {
    headers: hubToken ? { Authorization: `Bearer ${hubToken}` } : {},
  });
  if (response.status !== 200) return { status: response.status };
  return { status: 200, token: ((await response.json()) as { accessToken: string }).accessToken };
}

/** POST /api/buckets/{bucket}/batch with these NDJSON operations. */
export function bucketBatch(
  hubUrl: string,
  hubToken: string | undefined,
  bucket: string,
  operations: unknown[],
): Promise<Response> {
  return fetch(`${hubUrl}/api/buckets/${bucket}/batch`, {
    method: "POST",
    headers: {
      ...(hubToken ? { Authorization: `Bearer ${hubToken}` } : {}),
      "Content-Type": "application/x-ndjson",
    },
    body: operations.map((operation) => JSON.stringify(operation)).join("\n"),
  });
}

/**
 * Uploads a sample file's xorb and shard with the bucket's write token, as @huggingface/hub does, and adds it
 * at `path`: the upload (its bytes and Xet file hash). Throws when a step is refused.
 */
export async function uploadToBucket(
  hubUrl: string,
  hubToken: string,
  bucket: string,
  path: string,
  seed: number,
  size = 20_000,
) {
  const upload = await sampleUpload(seed, size);
  const { token } = await bucketXetToken(hubUrl, hubToken, bucket, "write");
  if (!token) throw new Error(`No write token for the bucket ${bucket}.`);
  const xorb = await casRequest(hubUrl, "POST", `/v1/xorbs/default/${upload.xorbHex}`, token, upload.xorb);
  if (xorb.status !== 200) throw new Error(`xorb upload: ${xorb.status} ${await xorb.text()}`);
  const shard = await casRequest(hubUrl, "POST", "/v1/shards", token, serializeShard({ files: [upload.file], xorbs: [] }));
  if (shard.status !== 200) throw new Error(`shard upload: ${shard.status} ${await shard.text()}`);
  const added = await bucketBatch(hubUrl, hubToken, bucket, [{ type: "addFile", path, xetHash: upload.fileHex }]);
  if (added.status !== 200) throw new Error(`addFile: ${added.status} ${await added.text()}`);
  return upload;
}
