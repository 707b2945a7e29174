/**
 * The viewer's Parquet cache files do not pile up (migration 51): a new revision's conversion removes the
 * files of the one it replaces (also a copy a read fetched back from the blob store), a failed conversion
 * those of the result it replaces, a dataset's deletion its files (the idle worker's sweep), a file two
 * datasets of the same content share stays while one of them still uses it, and files no dataset lists
 * (cached before the list existed, a crashed fetch) go once they are old. Over a real hub, SQLite or
 * PostgreSQL.
 */
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const hub = useTestHub();
let token: string;
const parquetDir = () => join(hub.dataDir, "viewer", "parquet");
const cacheFiles = () =>
  existsSync(parquetDir())
    ? readdirSync(parquetDir())
        .filter((name) => name.endsWith(".parquet"))
        .sort()
    : [];

async function call(path: string, init: { method?: string; json?: unknown; ndjson?: unknown[] } = {}) {
  const response = await fetch(`${hub.url}${path}`, {
    method: init.method ?? (init.json || init.ndjson ? "POST" : "GET"),
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": init.ndjson ? "application/x-ndjson" : "application/json",
    },
    body: init.ndjson
      ? init.ndjson.map((line) => JSON.stringify(line)).join("\n")
      : init.json
        ? JSON.stringify(init.json)
        : undefined,
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => null)) as Record<string, unknown>,
  };
}

async function commit(name: string, text: string) {
  const answer = await call(`/api/datasets/alice/${name}/commit/main`, {
    ndjson: [
      { key: "header", value: { summary: "data" } },
      {
        key: "file",
        value: { path: "train.jsonl", content: Buffer.from(text).toString("base64"), encoding: "base64" },
      },
    ],
  });
  expect(answer.status).toBe(200);
}

async function dataset(name: string, words: string[]) {
  expect((await call("/api/repos/create", { json: { name, type: "dataset" } })).status).toBe(200);
  await commit(name, words.map((text) => JSON.stringify({ text })).join("\n"));
}

/** The texts of a split's first rows, read through the Parquet cache. */
const texts = async (name: string) =>
  (
    (
      await call(
        `/datasets-server/rows?${new URLSearchParams({ dataset: `alice/${name}`, config: "default", split: "train" })}`,
      )
    ).body.rows as { row: { text: string } }[]
  ).map((row) => row.row.text);

/** The cache files a step added to the directory. */
async function added(step: () => Promise<unknown>): Promise<string[]> {
  const before = new Set(cacheFiles());
  await step();
  return cacheFiles().filter((name) => !before.has(name));
}

beforeAll(async () => {
  token = await userToken(hub.store, "alice");
}, 60_000);

describe("Parquet cache files", () => {
  it("are replaced with the revision they hold, also when a read fetched them back, and removed with the dataset", async () => {
    const first = await added(async () => {
      await dataset("revised", ["apple pie", "plum tart"]);
      expect(await hub.viewer!.drain()).toBe(1);
    });
    expect(first).toHaveLength(1);
    // A replica without the converter's disk (here: the copy removed) fetches the file back and lists it.
    rmSync(join(parquetDir(), first[0]!));
    expect(await texts("revised")).toEqual(["apple pie", "plum tart"]);
    expect(existsSync(join(parquetDir(), first[0]!))).toBe(true);

    await commit("revised", JSON.stringify({ text: "cherry cake" }));
    expect(await hub.viewer!.drain()).toBe(1);
    // The old revision's file is gone; the new one answers.
    expect(existsSync(join(parquetDir(), first[0]!))).toBe(false);
    expect(await texts("revised")).toEqual(["cherry cake"]);
    const current = cacheFiles();

    expect(
      (
        await call("/api/repos/delete", {
          method: "DELETE",
          json: { type: "dataset", name: "alice/revised" },
        })
      ).status,
    ).toBe(200);
    const removed = await hub.viewer!.sweepParquetFiles();
    expect(removed).toHaveLength(1);
    expect(cacheFiles()).toEqual(current.filter((name) => name !== `${removed[0]}.parquet`));
  }, 120_000);

  it("of a result replaced by a failed conversion are removed", async () => {
    const converted = await added(async () => {
      await dataset("broken", ["fine"]);
      expect(await hub.viewer!.drain()).toBe(1);
    });
    expect(converted).toHaveLength(1);
    await commit("broken", '{"text": "fine"}\n{"text": ');
    expect(await hub.viewer!.drain()).toBe(1);
    // The bad JSON line is recorded as the dataset's error, in place of the result that used the file.
    expect((await call("/datasets-server/splits?dataset=alice/broken")).status).toBe(500);
    expect(existsSync(join(parquetDir(), converted[0]!))).toBe(false);
  }, 120_000);

  it("stay while another dataset of the same content uses them", async () => {
    const shared = await added(async () => {
      await dataset("twin-a", ["zebra crossing"]);
      await dataset("twin-b", ["zebra crossing"]);
      expect(await hub.viewer!.drain()).toBe(2);
    });
    // Same rows, same Parquet bytes: one cache file for both.
    expect(shared).toHaveLength(1);
    await commit("twin-a", JSON.stringify({ text: "giraffe neck" }));
    expect(await hub.viewer!.drain()).toBe(1);
    expect(existsSync(join(parquetDir(), shared[0]!))).toBe(true);
    expect(await texts("twin-b")).toEqual(["zebra crossing"]);
    expect(await texts("twin-a")).toEqual(["giraffe neck"]);
  }, 120_000);

  it("that no dataset lists are removed once a day old, not sooner", async () => {
    const stale = join(parquetDir(), `${"0".repeat(64)}.parquet`);
    const crashed = join(parquetDir(), `${"1".repeat(64)}.parquet.abcd1234.part`);
    const fresh = join(parquetDir(), `${"2".repeat(64)}.parquet`);
    for (const path of [stale, crashed, fresh]) writeFileSync(path, "not a Parquet file");
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    utimesSync(crashed, twoDaysAgo, twoDaysAgo);
    const listed = cacheFiles().filter((name) => !name.startsWith("0") && !name.startsWith("2"));
    expect(listed.length).toBeGreaterThan(0);
    // Listed files stay however old they are.
    for (const name of listed) utimesSync(join(parquetDir(), name), twoDaysAgo, twoDaysAgo);
    await hub.viewer!.sweepParquetFiles();
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(crashed)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    for (const name of listed) expect(existsSync(join(parquetDir(), name))).toBe(true);
  }, 60_000);
});
