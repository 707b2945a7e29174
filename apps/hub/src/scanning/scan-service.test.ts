import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import { refFiles } from "../repos/ref-files.js";
import type { RepoRecord } from "../repos/repo-records.js";
import { createRepoService, type RepoService } from "../repos/repo-service.js";
import type { BlobStore } from "../storage/blob-store.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import type { Store } from "../store/store.js";
import { runVenvPython } from "./__fixtures__/scan-sources.js";
import { contentKey } from "./content-key.js";
import { contentReader } from "./scan-content.js";
import { SCANNER_RULES_VERSION, scanFile } from "./scan-file.js";
import type { ScanSource } from "./scan-report.js";
import { createScanService, type ScanService, UnsafeFileError } from "./scan-service.js";

/**
 * The scan service on the test database (SQLite, or PostgreSQL with HUB_TEST_DATABASE=postgres) with the real
 * dispatcher: files queued by commits, claimed by two services sharing one database without a double scan,
 * a dead replica's claim retaken, re-scans on new rules, and SCAN_POLICY=block.
 */

const temp = makeTempDir();
let store: Store;
let blobs: BlobStore;
let repos: RepoService;
let repo: RepoRecord;
let evilPickle: Buffer;
const queued: Promise<unknown>[] = [];
/** Where commits queue their files: the service under test at the moment. */
let queueTo: ScanService | undefined;
/** Every scan the dispatcher ran, by path (a double scan shows as two). */
const scans: string[] = [];

/** A safetensors file: an 8-byte JSON-length, the header, one F32 tensor of two values. */
function safetensors(): Buffer {
  const header = Buffer.from(JSON.stringify({ w: { dtype: "F32", shape: [2], data_offsets: [0, 8] } }));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([length, header, Buffer.alloc(8)]);
}

function service(options: {
  workerId: string;
  rulesVersion?: string;
  policy?: "warn" | "block";
  backfill?: boolean;
}) {
  const reader = contentReader({ blobs });
  return createScanService({
    table: store.scanning,
    scanFile: (source: ScanSource) => {
      scans.push(source.path);
      return scanFile(source);
    },
    rulesVersion: options.rulesVersion ?? SCANNER_RULES_VERSION,
    openSource: reader.openSource,
    contentHeld: reader.held,
    policy: options.policy,
    workerId: options.workerId,
    pollMs: 50,
    ...(options.backfill ? { walkRefs: () => refFiles(store) } : {}),
  });
}

async function commit(
  files: Record<string, Buffer>,
  to: RepoRecord = repo,
  deletes: string[] = [],
): Promise<string> {
  const operations = [];
  for (const [path, bytes] of Object.entries(files)) {
    const { path: _path, ...file } = await repos.putRegular(path, bytes);
    operations.push({ kind: "put" as const, path, file });
  }
  for (const path of deletes) operations.push({ kind: "deleteFile" as const, path });
  const result = await repos.commit(to, {
    ref: "refs/heads/main",
    title: "add files",
    description: "",
    author: "alice",
    operations,
  });
  await Promise.all(queued.splice(0));
  return result.commit.oid;
}

const fileOf = async (path: string) =>
  repos.file(repo, (await repos.resolveOrThrow(repo, "main")).commitOid, path);

beforeAll(async () => {
  store = await openTestStore({ dataDir: temp.dir });
  blobs = await createFsBlobStore(`${temp.dir}/blobs`);
  repos = createRepoService({
    store,
    blobs,
    onFilesRecorded: (recordedRepo, files) => {
      if (queueTo) queued.push(queueTo.enqueue(recordedRepo, files));
    },
  });
  repo = await repos.create({ type: "model", id: "alice/scanned", private: false, author: "alice" });
  // A pickle whose loading calls builtins.eval, made by Python's own pickle.
  evilPickle = Buffer.from(
    (
      await runVenvPython(
        [
          "import base64, pickle, sys",
          "class Evil:",
          "    def __reduce__(self):",
          "        return (eval, ('1 + 1',))",
          "sys.stdout.write(base64.b64encode(pickle.dumps({'weights': Evil()}, protocol=4)).decode())",
        ].join("\n"),
      )
    ).trim(),
    "base64",
  );
}, 60_000);

afterAll(async () => {
  await store?.close();
  temp.remove();
});

describe("scan service", () => {
  it("scans each queued content once, shared by two services on one database", async () => {
    const first = service({ workerId: "replica-a" });
    const second = service({ workerId: "replica-b" });
    queueTo = first;
    await commit({
      "evil.pkl": evilPickle,
      "model.safetensors": safetensors(),
      "copy/evil.pkl": evilPickle,
      ...Object.fromEntries(
        Array.from({ length: 8 }, (_, index) => [`notes/${index}.txt`, Buffer.from(`note ${index}\n`)]),
      ),
    });
    // The repository's .gitattributes came before any queue listened: queued by hand (as a re-scan does).
    const head = await repos.resolveOrThrow(repo, "main");
    expect(await first.enqueue(repo, await repos.files(repo, head.commitOid))).toBe(1);
    scans.length = 0;
    // The same pickle under two paths is one content key: eleven items, not twelve.
    const [a, b] = await Promise.all([first.drain(), second.drain()]);
    expect(a + b).toBe(11);
    expect(new Set(scans).size).toBe(scans.length);
    expect(scans).toHaveLength(11);

    const files = await Promise.all(["evil.pkl", "copy/evil.pkl", "model.safetensors"].map(fileOf));
    const statuses = await first.fileStatuses(files);
    expect(statuses.get("evil.pkl")).toMatchObject({
      status: "unsafe",
      avScan: null,
      pickleImportScan: {
        highestSafetyLevel: "dangerous",
        imports: expect.arrayContaining([{ module: "builtins", name: "eval", safety: "dangerous" }]),
      },
    });
    expect(statuses.get("copy/evil.pkl")?.status).toBe("unsafe");
    // "safe" once scanned and nothing found; no antivirus is set, so avScan stays null (not "clean").
    const safeReport = await first.report(repo, files[2]!);
    expect(safeReport).toMatchObject({ verdict: "safe", scanners: ["safetensors"] });
    expect(statuses.get("model.safetensors")).toEqual({
      status: "safe",
      avScan: null,
      pickleImportScan: null,
    });
    const all = await repos.files(repo, (await repos.resolveOrThrow(repo, "main")).commitOid);
    expect(await first.repoStatus(all)).toEqual({
      scansDone: true,
      filesWithIssues: expect.arrayContaining([
        { path: "evil.pkl", level: "unsafe" },
        { path: "copy/evil.pkl", level: "unsafe" },
      ]),
    });
    const report = await first.report(repo, files[0]!);
    expect(report).toMatchObject({
      verdict: "unsafe",
      policy: "warn",
      downloadable: true,
      scanState: "done",
    });
    expect(report.antivirus).toMatchObject({ status: "not-scanned" });
  });

  it("does not scan again what was scanned with the current rules", async () => {
    const again = service({ workerId: "replica-c" });
    queueTo = again;
    await commit({ "again/evil.pkl": evilPickle });
    scans.length = 0;
    await again.start();
    await again.stop();
    expect(await again.drain()).toBe(0);
    expect(scans).toEqual([]);
  });

  it("retakes an item whose scanner died (its lease expired) after a restart", async () => {
    const dead = service({ workerId: "dead" });
    queueTo = dead;
    await commit({ "late.pkl": evilPickle.subarray(0, 0), "late.txt": Buffer.from("late\n") });
    // A replica claimed an item and died: its lease ran out a second ago.
    const past = new Date(Date.now() - 60_000).toISOString();
    const claimed = await store.scanning.claim("dead", past, new Date(Date.now() - 1000).toISOString());
    expect(claimed?.status).toBe("scanning");
    const restarted = service({ workerId: "restarted" });
    scans.length = 0;
    expect(await restarted.drain()).toBe(2);
    const item = await store.scanning.get(claimed!.contentKey);
    expect(item).toMatchObject({ status: "done", claimedBy: undefined });
    // The dead replica's late report is not taken: the item is no longer its own.
    expect(
      await store.scanning.complete(claimed!.contentKey, "dead", {
        report: item!.report!,
        rulesVersion: "x",
        now: new Date().toISOString(),
      }),
    ).toBe(false);
  });

  it("re-scans everything when the rules version changes, at start", async () => {
    const before = (await store.scanning.counts()).done;
    const newer = service({ workerId: "newer", rulesVersion: `${SCANNER_RULES_VERSION}-next` });
    scans.length = 0;
    await newer.start();
    await newer.stop();
    // What the workers did not reach before stopping, a drain does: every report is made again, once.
    await newer.drain();
    const file = await fileOf("evil.pkl");
    const item = await store.scanning.get(contentKey(file.sha256, file.path));
    expect(item?.rulesVersion).toBe(`${SCANNER_RULES_VERSION}-next`);
    expect(scans.length).toBe(before);
  });

  it("under SCAN_POLICY=block refuses an unsafe file until an owner allows it, and scans a new one first", async () => {
    const blocking = service({ workerId: "blocking", policy: "block" });
    queueTo = undefined;
    // Committed with no queue listening: the download scans it before serving.
    await commit({ "fresh/evil.pkl": evilPickle, "fresh/ok.safetensors": safetensors() });
    const evil = await fileOf("fresh/evil.pkl");
    await expect(blocking.assertServable(repo, evil)).rejects.toThrow(UnsafeFileError);
    await expect(blocking.assertServable(repo, evil)).rejects.toThrow(/found unsafe.*allow it/);
    await expect(blocking.assertContentServable(repo.key, evil.sha256)).rejects.toThrow(UnsafeFileError);
    await blocking.assertServable(repo, await fileOf("fresh/ok.safetensors"));
    const allowed = await blocking.allow(repo, evil, "alice");
    expect(allowed).toMatchObject({ downloadable: true, allowed: { by: "alice" }, policy: "block" });
    await blocking.assertServable(repo, evil);
    await blocking.assertContentServable(repo.key, evil.sha256);
  });

  it("queues what every ref head holds that has no row: at start (in the background) and on the admin re-scan", async () => {
    // A repository whose history was written before the scanner existed: nothing queued its files.
    queueTo = undefined;
    const before = await repos.create({
      type: "model",
      id: "alice/before-scanning",
      private: false,
      author: "alice",
    });
    const tagged = await commit({ "tagged-only.pkl": evilPickle }, before);
    await store.repos.setRef(before.key, "refs/tags/v1", tagged);
    const proposed = await commit({ "pr-only.txt": Buffer.from("proposed\n") }, before);
    await store.repos.setRef(before.key, "refs/pr/1", proposed);
    await commit({ "main-only.txt": Buffer.from("main\n") }, before, ["tagged-only.pkl", "pr-only.txt"]);
    const heads = new Map<string, { path: string; sha256: string }>();
    const refs = await store.repos.refs(before.key);
    expect(refs.map((ref) => ref.name).sort()).toEqual(["refs/heads/main", "refs/pr/1", "refs/tags/v1"]);
    for (const { commitOid } of refs) {
      for (const file of await repos.files(before, commitOid))
        heads.set(contentKey(file.sha256, file.path), file);
    }
    expect([...heads.values()].map((file) => file.path).sort()).toEqual(
      expect.arrayContaining(["main-only.txt", "pr-only.txt", "tagged-only.pkl"]),
    );
    const missing = async () => [...heads.keys()].filter((key) => !queuedKeys.has(key));
    let queuedKeys = await store.scanning.many([...heads.keys()]);
    // The tagged pickle's content is queued already (evil.pkl, same content and name class): two are missing.
    const missingBefore = (await missing()).length;
    expect(missingBefore).toBe(2);

    // Start does not wait for the walk; backfilled() is the walk start began.
    const starting = service({ workerId: "backfill", backfill: true });
    await starting.start();
    const added = await starting.backfilled();
    await starting.stop();
    queuedKeys = await store.scanning.many([...heads.keys()]);
    expect(await missing()).toEqual([]);
    expect(added).toBe(missingBefore);

    // A row lost (deleted) comes back through the admin re-scan, which also re-queues the reports.
    const lost = [...heads.keys()][0]!;
    await store.db.run("DELETE FROM scan_queue WHERE content_key = ?", [lost]);
    const rescan = await starting.rescanAll();
    expect(rescan.queued).toBe(1);
    expect((await store.scanning.get(lost))?.status).toBe("pending");
    await starting.drain();
  });
});
