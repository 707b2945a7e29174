import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import type { Database } from "../store/database.js";
import type { Store } from "../store/store.js";
import { createUsageTable, type UsageRecord } from "./usage-table.js";

let temp: ReturnType<typeof makeTempDir>;
let store: Store;
let db: Database;
beforeEach(async () => {
  temp = makeTempDir();
  store = await openTestStore({ dataDir: temp.dir });
  db = store.db;
  await db.run(
    "INSERT INTO tokens (id, name, token_hash, token_hint, scopes, created_at) VALUES (1, 't', 'h', 'hf_', 'inference', '2026-01-01')",
  );
});
afterEach(async () => {
  await store.close();
  temp.remove();
});

const call = (overrides: Partial<UsageRecord> = {}): UsageRecord => ({
  tokenId: 1,
  provider: "together",
  model: "m/a",
  status: 200,
  requestBytes: 10,
  responseBytes: 100,
  durationMs: 5,
  ...overrides,
});

const rawRows = async () => (await db.get<{ n: number }>("SELECT count(*) AS n FROM usage"))!.n;

describe("usage records", () => {
  it("keep daily totals that outlive the per-call rows pruned after the retention", async () => {
    let clock = new Date("2026-01-01T10:00:00Z");
    const usage = createUsageTable(db, () => clock, 7);
    usage.record(call());
    usage.record(call({ status: 502, model: null }));
    await usage.flush();
    clock = new Date("2026-01-05T10:00:00Z");
    usage.record(call({ requestBytes: 1 }));
    await usage.flush();
    expect(await rawRows()).toBe(3);

    // Ten days later the first day's rows are past the 7-day retention; their totals stay.
    clock = new Date("2026-01-11T10:00:00Z");
    expect(await usage.prune()).toBe(2);
    expect(await rawRows()).toBe(1);
    expect(await usage.summary()).toEqual([
      {
        tokenId: 1,
        provider: "together",
        model: null,
        requests: 1,
        errors: 1,
        requestBytes: 10,
        responseBytes: 100,
        totalMs: 5,
      },
      {
        tokenId: 1,
        provider: "together",
        model: "m/a",
        requests: 2,
        errors: 0,
        requestBytes: 11,
        responseBytes: 200,
        totalMs: 10,
      },
    ]);
    const days = await db.all("SELECT day, requests FROM usage_daily ORDER BY day, model");
    expect(days).toEqual([
      { day: "2026-01-01", requests: 1 },
      { day: "2026-01-01", requests: 1 },
      { day: "2026-01-05", requests: 1 },
    ]);
  });

  it("prune as records are flushed, at most once an hour", async () => {
    let clock = new Date("2026-01-01T00:00:00Z");
    const usage = createUsageTable(db, () => clock, 1);
    for (let i = 0; i < 20; i++) usage.record(call());
    await usage.flush();
    clock = new Date("2026-01-03T00:00:00Z");
    usage.record(call());
    await usage.flush();
    expect(await rawRows()).toBe(1);
    expect((await usage.summary())[0]!.requests).toBe(21);
  });

  it("add a batch's calls up per day, token, provider and model, onto the totals already there", async () => {
    let clock = new Date("2026-01-01T23:59:59Z");
    const usage = createUsageTable(db, () => clock, 30);
    usage.record(call());
    usage.record(call({ status: 429, durationMs: 7 }));
    usage.record(call({ provider: "groq" }));
    clock = new Date("2026-01-02T00:00:01Z");
    usage.record(call({ requestBytes: 3 }));
    await usage.flush();
    clock = new Date("2026-01-02T08:00:00Z");
    usage.record(call({ status: 0 }));
    await usage.flush();
    expect(await rawRows()).toBe(5);
    const days = await db.all(
      "SELECT day, provider, requests, errors, request_bytes AS bytes, total_ms AS ms FROM usage_daily ORDER BY day, provider",
    );
    expect(days).toEqual([
      { day: "2026-01-01", provider: "groq", requests: 1, errors: 0, bytes: 10, ms: 5 },
      { day: "2026-01-01", provider: "together", requests: 2, errors: 1, bytes: 20, ms: 12 },
      { day: "2026-01-02", provider: "together", requests: 2, errors: 1, bytes: 13, ms: 10 },
    ]);
  });

  it("add interleaved calls of a batch to their own totals", async () => {
    const usage = createUsageTable(db, () => new Date("2026-01-01T10:00:00Z"), 30);
    for (const model of ["m/a", "m/b", "m/a", "m/a", "m/b", null, "m/a"]) usage.record(call({ model }));
    await usage.flush();
    const days = await db.all("SELECT model, requests FROM usage_daily ORDER BY model");
    expect(days).toEqual([
      { model: "", requests: 1 },
      { model: "m/a", requests: 4 },
      { model: "m/b", requests: 2 },
    ]);
  });

  it("store each call's time as toISOString writes it, and a batch across midnight in two days", async () => {
    const times = [
      "2026-01-01T23:59:59.007Z",
      "2026-01-01T23:59:59.045Z",
      "2026-01-01T23:59:59.999Z",
      "2026-01-02T00:00:00.000Z",
      "2026-01-02T00:00:00.123Z",
    ].map((iso) => new Date(iso));
    let clock = times[0]!;
    const usage = createUsageTable(db, () => clock, 30);
    for (const time of times) {
      clock = time;
      usage.record(call());
    }
    await usage.flush();
    const rows = await db.all<{ created_at: string }>("SELECT created_at FROM usage ORDER BY created_at");
    expect(rows.map((row) => row.created_at)).toEqual(times.map((time) => time.toISOString()));
    const days = await db.all("SELECT day, requests FROM usage_daily ORDER BY day");
    expect(days).toEqual([
      { day: "2026-01-01", requests: 3 },
      { day: "2026-01-02", requests: 2 },
    ]);
  });
});
