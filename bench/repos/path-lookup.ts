/**
 * What resolving one path costs in a 20,000-file folder (the download hot path: store.repos.file), with the
 * process's tree node cache warm and with no cache (each lookup reads and parses the root, the folder's page
 * list and one page). The measurement behind repos/tree-node-cache.ts; in process, on a temp SQLite store:
 * `node --conditions=source --import tsx repos/path-lookup.ts` from bench/.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyCommit, initialCommit } from "../../apps/hub/src/repos/commit-engine.js";
import { gitBlobId } from "../../apps/hub/src/repos/git-objects.js";
import { TreeNodeCache } from "../../apps/hub/src/repos/tree-node-cache.js";
import { createTreeNodesTable } from "../../apps/hub/src/repos/tree-nodes-table.js";
import { openStore } from "../../apps/hub/src/store/store.js";

const FILES = 20_000;
const LOOKUPS = 2_000;
const dir = mkdtempSync(join(tmpdir(), "modelhub-bench-lookup-"));
const store = await openStore({ dataDir: dir });
try {
  const repo = await store.writeTransaction(async (tx) => {
    const created = await tx.repos.insert({
      type: "dataset",
      id: "bench/lookup",
      owner: "bench",
      private: false,
      gated: false,
      now: new Date().toISOString(),
    });
    await initialCommit(tx, created, [], "bench", new Date());
    return created;
  });
  const name = (i: number) => `data/part-${String(i).padStart(5, "0")}.txt`;
  await applyCommit(store, repo, {
    ref: "refs/heads/main",
    title: "files",
    description: "",
    author: "bench",
    now: new Date(),
    operations: Array.from({ length: FILES }, (_, i) => ({
      kind: "put" as const,
      path: name(i),
      file: {
        blobOid: gitBlobId(Buffer.from(String(i))),
        sha256: String(i).padStart(64, "0"),
        size: 1,
        lfs: false,
      },
    })),
  });
  const head = (await store.repos.ref(repo.key, "refs/heads/main"))!;
  const root = (await store.repos.rootOf(repo.key, head))!;
  const paths = Array.from({ length: LOOKUPS }, (_, i) => name((i * 7919) % FILES));
  const perLookup = async (lookup: (path: string) => Promise<unknown>) => {
    const started = performance.now();
    for (const path of paths) await lookup(path);
    return Math.round(((performance.now() - started) * 1000) / LOOKUPS);
  };
  const rounds = [];
  for (let round = 0; round < 3; round++) {
    rounds.push({
      warmCacheMicroseconds: await perLookup((path) => store.repos.file(repo.key, head, path)),
      noCacheMicroseconds: await perLookup((path) =>
        createTreeNodesTable(store.db, new TreeNodeCache()).entryAt(repo.key, root, path),
      ),
    });
  }
  process.stdout.write(`${JSON.stringify({ files: FILES, lookups: LOOKUPS, rounds }, null, 2)}\n`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
