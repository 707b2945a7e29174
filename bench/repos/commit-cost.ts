/**
 * What one small commit costs in a large repository (issue 32, class 7): a repository (a dataset or a model:
 * a commit to a model's main also derives its model page from the file list) of `files` files in one flat
 * folder (the worst case for a folder's size), then `commits` one-byte commits, each timed (wall, the HTTP
 * call) and weighed (the SQLite database's used pages before and after, WAL included, read through a second
 * connection to the hub's file).
 */
import { openStore } from "@modelhub/hub";
import { type HubApi, median } from "./measure.js";

export interface CommitCost {
  files: number;
  /** The commit that adds every file at once. */
  seedSeconds: number;
  seedMiB: number;
  commits: number;
  secondsPerCommit: { median: number; max: number };
  kiBPerCommit: { median: number; max: number };
}

const ndjson = (lines: unknown[]) =>
  [{ key: "header", value: { summary: "bench" } }, ...lines].map((line) => JSON.stringify(line)).join("\n");
const inline = (path: string, content: string) => ({
  key: "file",
  value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
});
const round = (value: number, digits: number) => Number(value.toFixed(digits));

export async function measureCommitCost(
  api: HubApi,
  dataDir: string,
  options: { files?: number; commits?: number; type?: "dataset" | "model" } = {},
): Promise<CommitCost> {
  const type = options.type ?? "dataset";
  const repo = `bench/commit-cost-${type}`;
  const files = options.files ?? 20_000;
  const commits = options.commits ?? 10;
  const store = await openStore({ dataDir });
  const usedBytes = async () => {
    const row = await store.db.get<{ used: number; size: number }>(
      `SELECT (SELECT page_count FROM pragma_page_count()) - (SELECT freelist_count FROM pragma_freelist_count())
         AS used, (SELECT page_size FROM pragma_page_size()) AS size`,
    );
    return row!.used * row!.size;
  };
  const commit = async (lines: unknown[]) => {
    const started = performance.now();
    await api(`/api/${type}s/${repo}/commit/main`, {
      method: "POST",
      headers: { "Content-Type": "application/x-ndjson" },
      body: ndjson(lines),
    });
    return (performance.now() - started) / 1000;
  };
  try {
    await api("/api/repos/create", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: repo, type }),
    });
    const name = (i: number) => `data/part-${String(i).padStart(5, "0")}.txt`;
    const beforeSeed = await usedBytes();
    const seedSeconds = await commit(Array.from({ length: files }, (_, i) => inline(name(i), `row ${i}\n`)));
    const seedBytes = (await usedBytes()) - beforeSeed;
    const seconds: number[] = [];
    const bytes: number[] = [];
    for (let i = 0; i < commits; i++) {
      const before = await usedBytes();
      seconds.push(await commit([inline(name((i * 1999) % files), String(i % 10))]));
      bytes.push((await usedBytes()) - before);
    }
    return {
      files,
      seedSeconds: round(seedSeconds, 2),
      seedMiB: round(seedBytes / 2 ** 20, 1),
      commits,
      secondsPerCommit: { median: round(median(seconds), 3), max: round(Math.max(...seconds), 3) },
      kiBPerCommit: { median: round(median(bytes) / 1024, 1), max: round(Math.max(...bytes) / 1024, 1) },
    };
  } finally {
    await store.close();
  }
}
