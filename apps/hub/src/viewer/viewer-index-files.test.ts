/**
 * The viewer's full-text index files do not pile up (migration 49): a new revision's conversion removes the
 * files of the one it replaces, a dataset's deletion removes its files (the idle worker's sweep), a file two
 * datasets of the same content share stays while one of them still uses it, and files no dataset lists
 * (an earlier index version, a crashed build) go once they are old. Over a real hub, SQLite or PostgreSQL.
 */
import { existsSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const hub = useTestHub();
let token: string;
const fullTextDir = () => join(hub.dataDir, "viewer", "fulltext");
const indexFiles = () =>
  existsSync(fullTextDir())
    ? readdirSync(fullTextDir())
        .filter((name) => name.endsWith(".sqlite"))
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
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, any> };
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

const search = async (name: string, query: string) =>
  (
    await call(
      `/datasets-server/search?${new URLSearchParams({ dataset: `alice/${name}`, config: "default", split: "train", query })}`,
    )
  ).body;

/** The index files a step added to the directory. */
async function added(step: () => Promise<unknown>): Promise<string[]> {
  const before = new Set(indexFiles());
  await step();
  return indexFiles().filter((name) => !before.has(name));
}

beforeAll(async () => {
  token = await userToken(hub.store, "alice");
}, 60_000);

describe("full-text index files", () => {
  it("are replaced with the revision they index, and removed with the dataset", async () => {
    const first = await added(async () => {
      await dataset("revised", ["apple pie", "plum tart"]);
      expect(await hub.viewer!.drain()).toBe(1);
    });
    expect(first).toHaveLength(1);
    expect((await search("revised", "apple")).num_rows_total).toBe(1);

    await commit("revised", [JSON.stringify({ text: "cherry cake" })].join("\n"));
    expect(await hub.viewer!.drain()).toBe(1);
    // The old revision's file is gone; the new one answers.
    expect(existsSync(join(fullTextDir(), first[0]!))).toBe(false);
    expect((await search("revised", "cherry")).num_rows_total).toBe(1);
    expect((await search("revised", "apple")).num_rows_total).toBe(0);
    const second = indexFiles().filter((name) => name !== first[0]);
    expect(second.length).toBeGreaterThan(0);

    const current = indexFiles();
    expect(
      (
        await call("/api/repos/delete", {
          method: "DELETE",
          json: { type: "dataset", name: "alice/revised" },
        })
      ).status,
    ).toBe(200);
    const removed = await hub.viewer!.sweepIndexFiles();
    expect(removed.length).toBe(1);
    expect(indexFiles()).toEqual(current.filter((name) => name !== `${removed[0]}.sqlite`));
    expect(existsSync(join(fullTextDir(), `${removed[0]}.sqlite`))).toBe(false);
  }, 120_000);

  it("stay while another dataset of the same content uses them", async () => {
    const shared = await added(async () => {
      await dataset("twin-a", ["zebra crossing"]);
      await dataset("twin-b", ["zebra crossing"]);
      expect(await hub.viewer!.drain()).toBe(2);
    });
    // Same Parquet files, same columns, same stemmer: one index file for both.
    expect(shared).toHaveLength(1);
    await commit("twin-a", JSON.stringify({ text: "giraffe neck" }));
    expect(await hub.viewer!.drain()).toBe(1);
    expect(existsSync(join(fullTextDir(), shared[0]!))).toBe(true);
    expect((await search("twin-b", "zebra")).num_rows_total).toBe(1);
    expect((await search("twin-a", "giraffe")).num_rows_total).toBe(1);
  }, 120_000);

  it("that no dataset lists are removed once a day old, not sooner", async () => {
    const stale = join(fullTextDir(), `${"0".repeat(64)}.sqlite`);
    const crashed = join(fullTextDir(), `${"1".repeat(64)}.sqlite.abcd1234.building`);
    const fresh = join(fullTextDir(), `${"2".repeat(64)}.sqlite`);
    for (const path of [stale, crashed, fresh]) writeFileSync(path, "not an index");
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);
    utimesSync(crashed, twoDaysAgo, twoDaysAgo);
    const listed = indexFiles().filter((name) => !name.startsWith("0") && !name.startsWith("2"));
    await hub.viewer!.sweepIndexFiles();
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(crashed)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    // Listed files stay.
    for (const name of listed) expect(existsSync(join(fullTextDir(), name))).toBe(true);
  }, 60_000);
});
