import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { ownPostgresUrl } from "../__fixtures__/test-store.js";
import { openStore, type StoreOptions } from "../store/store.js";
import { type UsageRecord, UsageTableClosedError } from "./usage-table.js";

/**
 * Closing the store (the last step of a graceful stop) writes every usage record made before it, including
 * those a background flush is writing at that moment, and then stops: no write after the pool has ended, no
 * retry, nothing logged. On both databases, whatever HUB_TEST_DATABASE says.
 */
const temp = makeTempDir();
let postgres: { url: string; stop(): void } | undefined;
afterAll(() => {
  postgres?.stop();
  temp.remove();
});

const dataDir = (name: string) => {
  const dir = join(temp.dir, name);
  mkdirSync(dir);
  return dir;
};

const call = (i: number): UsageRecord => ({
  tokenId: 1,
  provider: "together",
  model: `m/${i % 3}`,
  status: 200,
  requestBytes: 10,
  responseBytes: 100,
  durationMs: 5,
});

async function closeRightAfterRecording(options: StoreOptions) {
  const store = await openStore(options);
  await store.db.run(
    "INSERT INTO tokens (id, name, token_hash, token_hint, scopes, created_at) VALUES (1, 't', 'h', 'hf_', 'inference', '2026-01-01')",
  );
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    // 500 records start a background flush at once; the next ones wait for the 50 ms timer, which has
    // just fired when close() begins.
    for (let i = 0; i < 520; i++) store.usage.record(call(i));
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 520; i < 530; i++) store.usage.record(call(i));
    await new Promise((resolve) => setTimeout(resolve, 55));
    for (let i = 530; i < 540; i++) store.usage.record(call(i));
    const closed = store.close();
    // Made while the store closes (a router stream ending during shutdown): written before the pool ends.
    for (let i = 540; i < 550; i++) store.usage.record(call(i));
    await closed;
    // A retry would come 1 s after a failed write.
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect([...errors.mock.calls, ...warnings.mock.calls]).toEqual([]);
    // Made after: refused at once (the router logs "usage not recorded"), never queued for a write.
    expect(() => store.usage.record(call(550))).toThrow(UsageTableClosedError);
  } finally {
    errors.mockRestore();
    warnings.mockRestore();
  }
  const reopened = await openStore(options);
  try {
    const rows = await reopened.db.get<{ n: number }>("SELECT count(*) AS n FROM usage");
    const daily = await reopened.db.get<{ n: number }>("SELECT sum(requests) AS n FROM usage_daily");
    expect(Number(rows?.n)).toBe(550);
    expect(Number(daily?.n)).toBe(550);
  } finally {
    await reopened.close();
  }
}

describe("closing the store with usage records pending", () => {
  it("on SQLite: writes them all, logs nothing", async () => {
    await closeRightAfterRecording({ dataDir: dataDir("sqlite") });
  });

  it("on PostgreSQL: writes them all before the pool ends, logs nothing", async () => {
    postgres = await ownPostgresUrl("usage_close");
    await closeRightAfterRecording({ dataDir: dataDir("postgres"), databaseUrl: postgres.url });
  }, 60_000);
});
