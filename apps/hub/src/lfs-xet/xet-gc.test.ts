import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { blobStoreUnderTest } from "../__fixtures__/s3-server.js";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";
import type { BlobStore } from "../storage/blob-store.js";
import { openBlobStore } from "../storage/blob-store-config.js";
import { casRequest, sampleUpload, xetTokenFor } from "./__fixtures__/xet-upload.js";
import { serializeShard } from "./shard.js";
import { collectXetGarbage } from "./xet-gc.js";

let hub: RunningHub;
let temp: ReturnType<typeof makeTempDir>;
let blobStore: Awaited<ReturnType<typeof blobStoreUnderTest>>;
let blobs: BlobStore;
let hubToken: string;
let write: string;
const HOUR = 60 * 60 * 1000;
const REPO = "alice/gc";

beforeAll(async () => {
  temp = makeTempDir();
  blobStore = await blobStoreUnderTest();
  const dataDir = join(temp.dir, "data");
  hub = await startTestHub({
    ...blobStore.options,
    dataDir,
    providerSim: false,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
  });
  // A second handle on the hub's blobs (its directory or bucket), as another replica would open it.
  blobs = await openBlobStore(blobStore.options.blobStore ?? { kind: "fs" }, dataDir);
  hubToken = await userToken(hub.store, "alice");
  const created = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${hubToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: REPO, type: "model" }),
  });
  expect(created.status).toBe(200);
  write = (await xetTokenFor(hub.url, hubToken, REPO, "write")).body.accessToken;
});
afterAll(async () => {
  await hub.close();
  await blobStore.close();
  temp.remove();
});

const postXorb = async (upload: Awaited<ReturnType<typeof sampleUpload>>) =>
  casRequest(hub.url, "POST", `/v1/xorbs/default/${upload.xorbHex}`, write, upload.xorb);
const postShard = (upload: Awaited<ReturnType<typeof sampleUpload>>) =>
  casRequest(hub.url, "POST", "/v1/shards", write, serializeShard({ files: [upload.file], xorbs: [] }));

async function commitLfs(path: string, upload: Awaited<ReturnType<typeof sampleUpload>>) {
  const lines = [
    { key: "header", value: { summary: `add ${path}` } },
    { key: "lfsFile", value: { path, algo: "sha256", oid: upload.sha256, size: upload.data.length } },
  ];
  const response = await fetch(`${hub.url}/api/models/${REPO}/commit/main`, {
    method: "POST",
    headers: { Authorization: `Bearer ${hubToken}`, "Content-Type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  expect(response.status).toBe(200);
}

const blobOf = async (xorb: string) => (await hub.store.xet.xorb(xorb))?.blobSha256 as string;
const gcAt = (hoursFromNow: number) =>
  collectXetGarbage(
    { gc: hub.store.xetGc, blobs },
    { now: new Date(Date.now() + hoursFromNow * HOUR), graceMs: HOUR },
  );

describe("Xet garbage collection", () => {
  it("collects what no commit reaches, after the grace period, and never what an upload still needs", async () => {
    const committed = await sampleUpload(11);
    const uncommitted = await sampleUpload(12);
    const orphan = await sampleUpload(13);
    for (const upload of [committed, uncommitted, orphan]) expect((await postXorb(upload)).status).toBe(200);
    for (const upload of [committed, uncommitted]) expect((await postShard(upload)).status).toBe(200);
    await commitLfs("weights.bin", committed);
    const blobs0 = {
      committed: await blobOf(committed.xorbHex),
      uncommitted: await blobOf(uncommitted.xorbHex),
      orphan: await blobOf(orphan.xorbHex),
    };

    // Within the grace period every upload is in flight (a shard or commit may still come): nothing goes.
    expect(await gcAt(0)).toEqual({ filesDeleted: 0, xorbsMarked: 0, xorbsDeleted: 0, bytesFreed: 0 });

    // After it: the uncommitted file goes, and the xorbs no file uses are marked, not yet deleted.
    expect(await gcAt(2)).toMatchObject({ filesDeleted: 1, xorbsMarked: 2, xorbsDeleted: 0 });
    expect(await hub.store.xet.file(uncommitted.fileHex)).toBeUndefined();
    expect(await hub.store.xetGc.xorbState(orphan.xorbHex)).toBe("marked");
    expect(await blobs.head(blobs0.orphan)).toBeDefined();

    // An upload that needs a marked xorb keeps it: here the same xorb is uploaded again.
    expect(await (await postXorb(orphan)).json()).toEqual({ was_inserted: false });
    expect(await hub.store.xetGc.xorbState(orphan.xorbHex)).toBe("kept");

    // A grace period after marking, the still-unused xorb is deleted: blob first, then its rows.
    const report = await gcAt(4);
    expect(report).toMatchObject({ xorbsDeleted: 1, bytesFreed: uncommitted.xorb.length });
    expect(await hub.store.xet.xorb(uncommitted.xorbHex)).toBeUndefined();
    expect(await hub.store.xet.chunks(uncommitted.xorbHex)).toEqual([]);
    expect(await blobs.head(blobs0.uncommitted)).toBeUndefined();
    // The kept xorb was marked again by that run (still unused), and is still stored.
    expect(await hub.store.xetGc.xorbState(orphan.xorbHex)).toBe("marked");
    expect(await blobs.head(blobs0.orphan)).toBeDefined();

    // A shard naming the collected xorb is refused; uploading the xorb again brings it back.
    expect((await postShard(uncommitted)).status).toBe(400);
    expect((await postXorb(uncommitted)).status).toBe(200);
    expect((await postShard(uncommitted)).status).toBe(200);

    // The committed file is untouched throughout, and still downloads byte for byte.
    expect(await blobs.head(blobs0.committed)).toBeDefined();
    const download = await fetch(`${hub.url}/${REPO}/resolve/main/weights.bin`, {
      headers: { Authorization: `Bearer ${hubToken}` },
    });
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(committed.data))).toBe(true);
  });

  it("a claimed xorb is refused to uploads (503) until it is gone, then accepted afresh", async () => {
    const upload = await sampleUpload(14);
    expect((await postXorb(upload)).status).toBe(200);
    await gcAt(10); // marks it
    const claimed = await hub.store.xetGc.claimMarkedXorbs(
      new Date(Date.now() + 12 * HOUR),
      new Date(Date.now() + 11 * HOUR),
      new Date(Date.now() + 12 * HOUR),
    );
    expect(claimed.map((x) => x.hash)).toContain(upload.xorbHex);
    expect((await postXorb(upload)).status).toBe(503);
    expect((await postShard(upload)).status).toBe(400);
    await blobs.delete(await blobOf(upload.xorbHex));
    await hub.store.xetGc.deleteClaimedXorb(upload.xorbHex);
    expect((await postXorb(upload)).status).toBe(200);
    expect(await blobs.head(await blobOf(upload.xorbHex))).toBeDefined();
  });
});
