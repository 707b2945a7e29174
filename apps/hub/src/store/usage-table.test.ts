import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { migrate } from "./migrations.js";
import { createUsageTable, type UsageRecord } from "./usage-table.js";

let temp: ReturnType<typeof makeTempDir>;
let db: Database.Database;
beforeEach(() => {
  temp = makeTempDir();
  db = new Database(join(temp.dir, "usage.sqlite"));
  migrate(db);
  db.prepare(
    "INSERT INTO tokens (id, name, token_hash, token_hint, scopes, created_at) VALUES (1, 't', 'h', 'hf_', 'inference', '2026-01-01')",
  ).run();
});
afterEach(() => {
  db.close();
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

const rawRows = () => (db.prepare("SELECT count(*) AS n FROM usage").get() as { n: number }).n;

describe("usage records", () => {
  it("keep daily totals that outlive the per-call rows pruned after the retention", () => {
    let clock = new Date("2026-01-01T10:00:00Z");
    const usage = createUsageTable(db, () => clock, 7);
    usage.record(call());
    usage.record(call({ status: 502, model: null }));
    usage.flush();
    clock = new Date("2026-01-05T10:00:00Z");
    usage.record(call({ requestBytes: 1 }));
    usage.flush();
    expect(rawRows()).toBe(3);

    // Ten days later the first day's rows are past the 7-day retention; their totals stay.
    clock = new Date("2026-01-11T10:00:00Z");
    expect(usage.prune()).toBe(2);
    expect(rawRows()).toBe(1);
    expect(usage.summary()).toEqual([
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
    const days = db.prepare("SELECT day, requests FROM usage_daily ORDER BY day, model").all();
    expect(days).toEqual([
      { day: "2026-01-01", requests: 1 },
      { day: "2026-01-01", requests: 1 },
      { day: "2026-01-05", requests: 1 },
    ]);
  });

  it("prune as records are flushed, at most once an hour", () => {
    let clock = new Date("2026-01-01T00:00:00Z");
    const usage = createUsageTable(db, () => clock, 1);
    for (let i = 0; i < 20; i++) usage.record(call());
    usage.flush();
    clock = new Date("2026-01-03T00:00:00Z");
    usage.record(call());
    usage.flush();
    expect(rawRows()).toBe(1);
    expect(usage.summary()[0]!.requests).toBe(21);
  });
});
