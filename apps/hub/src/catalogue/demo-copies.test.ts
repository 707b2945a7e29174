import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";
import { sourcedCreationDates } from "./catalogue.js";
import { CATALOGUE_HONESTY_MIGRATION } from "./catalogue-honesty-migration.js";

/**
 * Demo copies of catalogue models (issue 38, item 1): the original's sourced dates or none, huggingface.co's
 * figures labelled as that site's beside this hub's own counters, until a commit here makes the repository
 * the hub's own.
 */

const ADMIN = "demo-copies-admin-token-0123456789";
const hub = useTestHub({ adminToken: ADMIN });
/** Fixture records with a `createdAt` (the fixture catalogue dates every record). */
const CHAT = { id: "meta-llama/Llama-3.1-8B-Instruct", createdAt: "2024-07-18T08:56:00.000Z" };
const QWEN = { id: "Qwen/Qwen2.5-7B-Instruct", createdAt: "2024-09-16T11:55:40.000Z" };

type Info = Record<string, unknown> & {
  demoCopy?: { original: string; sourceFigures?: unknown };
  createdAt?: string;
  lastModified?: string;
};

async function info(id: string): Promise<Info> {
  const response = await fetch(`${hub.url}/api/models/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Info;
}

async function listed(search: string, id: string): Promise<Info | undefined> {
  const response = await fetch(`${hub.url}/api/models?search=${encodeURIComponent(search)}&full=true`);
  expect(response.status).toBe(200);
  return ((await response.json()) as Info[]).find((model) => model.id === id);
}

describe("a demo copy", () => {
  it("says where the original is and gives its sourced creation date, never the day the copy was made", async () => {
    const body = await info(CHAT.id);
    expect(body.demoCopy).toEqual({ original: `https://huggingface.co/${CHAT.id}` });
    expect(body.createdAt).toBe(CHAT.createdAt);
    expect(body).not.toHaveProperty("lastModified");
    const row = await listed("Llama-3.1-8B-Instruct", CHAT.id);
    expect(row?.createdAt).toBe(CHAT.createdAt);
    expect(row).not.toHaveProperty("lastModified");
    // huggingface_hub's expand[] asks for the dates by name: still none made up.
    const expanded = await fetch(`${hub.url}/api/models/${CHAT.id}?expand[]=lastModified&expand[]=createdAt`);
    expect(await expanded.json()).toEqual({
      _id: expect.any(String),
      id: CHAT.id,
      modelId: CHAT.id,
      createdAt: CHAT.createdAt,
    });
  });

  it("shows the source's figures labelled with the source, and this hub's own counters apart", async () => {
    await hub.store.engagement.setSourceFigures(QWEN.id, {
      source: "huggingface.co",
      downloads: 6_800_000,
      likes: 2_480,
    });
    const body = await info(QWEN.id);
    expect(body.demoCopy).toEqual({
      original: `https://huggingface.co/${QWEN.id}`,
      sourceFigures: { source: "huggingface.co", downloads: 6_800_000, likes: 2_480 },
    });
    // The counters stay the hub's own (the fixture catalogue sets them as an operator's records do).
    expect(body.downloads).not.toBe(6_800_000);
    expect(body.likes).not.toBe(2_480);
  });

  it("is this hub's own repository once someone commits to it: its dates, no demo label", async () => {
    const started = Date.now();
    const lines = [
      { key: "header", value: { summary: "A card of our own" } },
      {
        key: "file",
        value: { path: "NOTES.md", content: Buffer.from("ours\n").toString("base64"), encoding: "base64" },
      },
    ];
    const commit = await fetch(`${hub.url}/api/models/${QWEN.id}/commit/main`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/x-ndjson" },
      body: lines.map((line) => JSON.stringify(line)).join("\n"),
    });
    expect(commit.status).toBe(200);
    const body = await info(QWEN.id);
    expect(body).not.toHaveProperty("demoCopy");
    expect(Date.parse(body.lastModified ?? "")).toBeGreaterThanOrEqual(started - 1000);
    expect((await listed("Qwen2.5-7B-Instruct", QWEN.id))?.createdAt).toBeDefined();
  });

  it("is not what a user's own repository is", async () => {
    await accountsService(hub.store.accounts).createUser({ name: "someone" });
    const created = await fetch(`${hub.url}/api/repos/create`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "model", name: "someone/own-model" }),
    });
    expect(created.status).toBe(200);
    const body = await info("someone/own-model");
    expect(body).not.toHaveProperty("demoCopy");
    expect(body.lastModified).toBeDefined();
  });
});

describe("migration 47 on a data directory seeded before it", () => {
  it("finds the demo copies by their seeding commit, keeping only creation dates that were sourced", async () => {
    const db = hub.store.db;
    const LLAMA_GGUF = "bartowski/Llama-3.2-3B-Instruct-GGUF";
    // Before migration 47 nothing recorded the copies, and a sourced date (a whole UTC day in the built-in
    // catalogue) was stored like a date stamped at seeding.
    await db.exec("DELETE FROM demo_copies");
    await db.run("UPDATE models SET created_at = ? WHERE id = ?", ["2024-09-25T00:00:00.000Z", LLAMA_GGUF]);
    await db.exec(CATALOGUE_HONESTY_MIGRATION[db.dialect]);
    // Replayed (the upgrade tests do): nothing doubles.
    await db.exec(CATALOGUE_HONESTY_MIGRATION[db.dialect]);
    const copies = await hub.store.demoCopies.untouchedOfModels([CHAT.id, LLAMA_GGUF, QWEN.id]);
    expect(copies.get(LLAMA_GGUF.toLowerCase())).toMatchObject({
      originalUrl: `https://huggingface.co/${LLAMA_GGUF}`,
      originalCreatedAt: "2024-09-25T00:00:00.000Z",
    });
    // Stamped to the millisecond: no one can tell it was sourced, so no date is given.
    expect(copies.get(CHAT.id.toLowerCase())).toEqual({
      repoKey: expect.any(Number),
      modelId: CHAT.id,
      originalUrl: `https://huggingface.co/${CHAT.id}`,
    });
    // Committed to above: its seeding commit is no longer main, so it is no demo copy any more.
    expect(copies.has(QWEN.id.toLowerCase())).toBe(false);
    const rows = await db.all<{ n: number | string }>("SELECT count(*) AS n FROM demo_copies");
    expect(Number(rows[0]?.n)).toBe(20);
  });
});

describe("sourcedCreationDates", () => {
  it("gives a record's createdAt, and nothing for a record without one or an unreadable catalogue", () => {
    const dir = mkdtempSync(join(tmpdir(), "catalogue-dates-"));
    try {
      writeFileSync(
        join(dir, "models.json"),
        JSON.stringify([
          { id: "a/dated", createdAt: "2024-12-11T00:00:00Z" },
          { modelId: "b/legacy-key", createdAt: "2023-01-02T03:04:05.000Z" },
          { id: "c/undated" },
          { id: "d/bad-date", createdAt: "soon" },
        ]),
      );
      const dateOf = sourcedCreationDates(dir);
      expect(dateOf("A/Dated")).toBe("2024-12-11T00:00:00.000Z");
      expect(dateOf("b/legacy-key")).toBe("2023-01-02T03:04:05.000Z");
      expect(dateOf("c/undated")).toBeUndefined();
      expect(dateOf("d/bad-date")).toBeUndefined();
      expect(sourcedCreationDates(join(dir, "missing"))("a/dated")).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
