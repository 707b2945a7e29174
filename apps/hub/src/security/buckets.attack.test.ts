import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { bucketBatch, bucketXetToken, uploadToBucket } from "../buckets/__fixtures__/bucket-upload.js";
import { casRequest, type sampleUpload } from "../lfs-xet/__fixtures__/xet-upload.js";
import { serializeShard } from "../lfs-xet/shard.js";

/**
 * Attacks on storage buckets (buckets/): an outsider with an account and a write token, the owner's own
 * read-only token, and Xet hashes learned elsewhere. A private bucket does not exist for outsiders, a
 * public one is read-only to them, and a hash alone never puts a file in a bucket nor reads one.
 */
const hub = useTestHub();
let victim: string;
let victimReader: string;
let mallory: string;
let secret: Awaited<ReturnType<typeof sampleUpload>>;

const api = (token: string | undefined, method: string, path: string, body?: unknown) =>
  fetch(`${hub.url}${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function createBucket(token: string, id: string, visibility: "private" | "public") {
  expect((await api(token, "POST", `/api/buckets/${id}`, { visibility })).status).toBe(200);
}

beforeAll(async () => {
  victim = await userToken(hub.store, "victim");
  victimReader = await userToken(hub.store, "victim", "read");
  mallory = await userToken(hub.store, "mallory");
  await createBucket(victim, "victim/secret", "private");
  await createBucket(victim, "victim/open", "public");
  await createBucket(mallory, "mallory/loot", "public");
  secret = await uploadToBucket(hub.url, victim, "victim/secret", "weights.bin", 7);
  await uploadToBucket(hub.url, victim, "victim/open", "readme.bin", 8);
});

describe("storage bucket attacks", () => {
  it("a private bucket does not exist for an outsider, on any route", async () => {
    for (const [method, path, body] of [
      ["GET", "/api/buckets/victim/secret", undefined],
      ["GET", "/api/buckets/victim/secret/tree?recursive=true", undefined],
      ["POST", "/api/buckets/victim/secret/paths-info", { paths: ["weights.bin"] }],
      ["GET", "/api/buckets/victim/secret/xet-read-token", undefined],
      ["GET", "/api/buckets/victim/secret/xet-write-token", undefined],
      ["GET", "/buckets/victim/secret/resolve/weights.bin", undefined],
      ["DELETE", "/api/buckets/victim/secret", undefined],
    ] as const) {
      const response = await api(mallory, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.text()).not.toContain(secret.fileHex);
    }
    expect(
      (await bucketBatch(hub.url, mallory, "victim/secret", [{ type: "deleteFile", path: "weights.bin" }]))
        .status,
    ).toBe(404);
    // Anonymous: asked to sign in, as for a private repository.
    expect((await api(undefined, "GET", "/api/buckets/victim/secret")).status).toBe(401);
  });

  it("a public bucket is read-only to an outsider, and to the owner's read token", async () => {
    for (const token of [mallory, victimReader]) {
      expect((await api(token, "GET", "/api/buckets/victim/open/tree")).status).toBe(200);
      expect((await api(token, "GET", "/api/buckets/victim/open/xet-write-token")).status).toBe(403);
      expect(
        (await bucketBatch(hub.url, token, "victim/open", [{ type: "deleteFile", path: "readme.bin" }]))
          .status,
      ).toBe(403);
      expect((await api(token, "DELETE", "/api/buckets/victim/open")).status).toBe(403);
      expect(
        (await api(token, "POST", "/api/buckets/victim/made-by-attacker", { visibility: "public" })).status,
      ).toBe(403);
    }
    expect((await api(victimReader, "GET", "/api/buckets/victim/secret/tree")).status).toBe(200);
    const files = (await (await api(victim, "GET", "/api/buckets/victim/open/tree")).json()) as {
      path: string;
    }[];
    expect(files.map((file) => file.path)).toEqual(["readme.bin"]);
  });

  it("knowing a private file's Xet hash neither adds it to one's bucket nor copies it", async () => {
    const answered = await bucketBatch(hub.url, mallory, "mallory/loot", [
      { type: "addFile", path: "stolen.bin", xetHash: secret.fileHex },
      {
        type: "copyFile",
        path: "copied.bin",
        xetHash: secret.fileHex,
        sourceRepoType: "bucket",
        sourceRepoId: "victim/secret",
      },
      {
        type: "copyFile",
        path: "model.bin",
        xetHash: secret.fileHex,
        sourceRepoType: "model",
        sourceRepoId: "victim/secret",
      },
    ]);
    expect(answered.status).toBe(422);
    const result = (await answered.json()) as { succeeded: number; failed: { path: string }[] };
    expect(result.succeeded).toBe(0);
    expect(result.failed.map((failure) => failure.path)).toEqual(["stolen.bin", "copied.bin", "model.bin"]);
    const files = (await (await api(mallory, "GET", "/api/buckets/mallory/loot/tree")).json()) as unknown[];
    expect(files).toEqual([]);
  });

  it("a bucket's Xet token reads only its own bucket's files, never a repository's or another bucket's", async () => {
    const { token } = await bucketXetToken(hub.url, mallory, "mallory/loot", "read");
    const reconstruction = await casRequest(hub.url, "GET", `/v1/reconstructions/${secret.fileHex}`, token);
    expect(reconstruction.status).toBe(404);
    // Uploading the same bytes again does not make the bucket hold them: only an addFile does, and then the
    // uploader had the bytes.
    const { token: write } = await bucketXetToken(hub.url, mallory, "mallory/loot", "write");
    const again = await casRequest(
      hub.url,
      "POST",
      "/v1/shards",
      write,
      serializeShard({ files: [secret.file], xorbs: [] }),
    );
    expect(again.status).toBe(200);
    expect((await casRequest(hub.url, "GET", `/v1/reconstructions/${secret.fileHex}`, token)).status).toBe(
      404,
    );
    // A write token never reads, a bucket's no more than a repository's.
    expect((await casRequest(hub.url, "GET", `/v1/reconstructions/${secret.fileHex}`, write)).status).toBe(
      403,
    );
    // The victim's own read token does read it.
    const own = await bucketXetToken(hub.url, victim, "victim/secret", "read");
    expect(
      (await casRequest(hub.url, "GET", `/v1/reconstructions/${secret.fileHex}`, own.token)).status,
    ).toBe(200);
  });
});
