import { createHash, randomBytes } from "node:crypto";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { createRepo, deleteRepo, downloadFile, uploadFiles } from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { runAdminCommand } from "../cli/admin-command.js";
import type { BlobStore } from "../storage/blob-store.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import { createRepoService } from "./repo-service.js";

let accessToken: string;
/** The hub's blob directory, opened as the admin CLI opens it. */
let blobs: BlobStore;
let blobRoot: string;
const hub = useTestHub();
beforeAll(async () => {
  accessToken = await userToken(hub.store, "alice");
  blobRoot = join(hub.dataDir, "blobs");
  blobs = await createFsBlobStore(blobRoot);
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const HOUR = 3_600_000;

/** As if the blob had been stored `hours` ago (what the grace period looks at). */
function age(sha: string, hours: number): void {
  const when = new Date(Date.now() - hours * HOUR);
  utimesSync(join(blobRoot, "sha256", sha.slice(0, 2), sha.slice(2, 4), sha), when, when);
}

async function gc(...args: string[]) {
  const output = await runAdminCommand(["blobs:gc", ...args], hub.store, [], {
    readStdin: async () => "",
    openBlobs: async () => blobs,
  });
  return (output as { json: Record<string, number | boolean> }).json;
}

async function upload(name: string, files: Record<string, Uint8Array>) {
  const repo = { type: "model" as const, name };
  await createRepo({ repo, accessToken, hubUrl: hub.url }).catch(() => undefined);
  await uploadFiles({
    repo,
    accessToken,
    hubUrl: hub.url,
    useXet: false,
    files: Object.entries(files).map(([path, content]) => ({
      path,
      content: new Blob([new Uint8Array(content)]),
    })),
  });
}

describe("blob garbage collection (admin blobs:gc)", () => {
  it("removes what deleted repositories and abandoned uploads left, after the grace period, and nothing else", async () => {
    const shared = randomBytes(40_000);
    const kept = Buffer.from("kept\n");
    const onlyGone = randomBytes(50_000);
    await upload("alice/keep", { "shared.bin": shared, "kept.txt": kept });
    await upload("alice/gone", { "shared.bin": shared, "only.bin": onlyGone });
    await deleteRepo({ repo: { type: "model", name: "alice/gone" }, accessToken, hubUrl: hub.url });
    // An upload nobody committed: the LFS batch and the PUT, no commit.
    const abandoned = randomBytes(30_000);
    const batch = await fetch(`${hub.url}/alice/keep.git/info/lfs/objects/batch`, {
      method: "POST",
      headers: { "Content-Type": "application/vnd.git-lfs+json", Authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({
        operation: "upload",
        objects: [{ oid: sha256(abandoned), size: abandoned.length }],
      }),
    }).then((r) => r.json());
    await fetch(batch.objects[0].actions.upload.href, { method: "PUT", body: new Uint8Array(abandoned) });
    const garbage = [sha256(onlyGone), sha256(abandoned)];
    expect(await blobs.head(garbage[1]!)).toBeDefined();

    // Within the grace period (uploads in flight look just like this): nothing goes.
    expect(await gc()).toMatchObject({ deleted: 0 });
    for (const sha of garbage) age(sha, 30);
    // The abandoned upload's record is younger than the grace period: its blob stays until both are old.
    expect(await gc("--dry-run")).toMatchObject({ deleted: 1, dryRun: true });
    expect(await blobs.head(garbage[0]!)).toBeDefined();
    const report = await gc("--grace-hours", "0");
    expect(report).toMatchObject({
      deleted: 2,
      bytesFreed: onlyGone.length + abandoned.length,
      prunedUploads: 1,
    });
    for (const sha of garbage) expect(await blobs.head(sha)).toBeUndefined();

    const repo = { type: "model" as const, name: "alice/keep" };
    for (const [path, content] of [
      ["shared.bin", shared],
      ["kept.txt", kept],
    ] as const) {
      const file = await downloadFile({ repo, hubUrl: hub.url, path });
      expect(sha256(new Uint8Array(await file!.arrayBuffer()))).toBe(sha256(content));
    }
  }, 60_000);

  it("never takes content an upload in flight is storing again, even while collecting", async () => {
    // Contents a deleted repository held, long ago: garbage, until someone uploads the same bytes again.
    const contents = Array.from({ length: 24 }, (_, i) =>
      Buffer.from(`content ${i} ${randomBytes(8).toString("hex")}\n`),
    );
    await upload("alice/old", Object.fromEntries(contents.map((content, i) => [`f${i}.txt`, content])));
    await deleteRepo({ repo: { type: "model", name: "alice/old" }, accessToken, hubUrl: hub.url });
    for (const content of contents) age(sha256(content), 48);

    // Each writer stores the bytes (a put of existing content), then commits: the window GC must respect.
    const repos = createRepoService({ store: hub.store, blobs });
    const target = { type: "model" as const, name: "alice/new" };
    await createRepo({ repo: target, accessToken, hubUrl: hub.url });
    const record = (await hub.store.repos.get("model", "alice/new"))!;
    const writers = contents.map(async (content, i) => {
      const file = await repos.putRegular(`f${i}.txt`, content);
      await new Promise((resolve) => setTimeout(resolve, i % 5));
      const { path, ...rest } = file;
      for (let attempt = 0; ; attempt++) {
        try {
          await repos.commit(record, {
            ref: "refs/heads/main",
            title: `add ${path}`,
            description: "",
            author: "alice",
            operations: [{ kind: "put", path, file: rest }],
          });
          return;
        } catch (error) {
          if (attempt > 20) throw error;
        }
      }
    });
    const collectors = [gc(), gc(), gc()];
    await Promise.all([...writers, ...collectors]);
    await gc();
    for (const [i, content] of contents.entries()) {
      const file = await downloadFile({ repo: target, hubUrl: hub.url, path: `f${i}.txt` });
      expect(Buffer.from(await file!.arrayBuffer()).equals(content)).toBe(true);
    }
  }, 60_000);
});
