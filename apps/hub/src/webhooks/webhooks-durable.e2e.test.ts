import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { ownPostgresUrl } from "../__fixtures__/test-store.js";
import type { RunningHub } from "../start-hub.js";
import { type Receiver, startReceiver } from "./__fixtures__/webhook-receiver.js";

/**
 * The delivery queue is the database's: a hub stopped with a delivery pending delivers it once started
 * again, and two hubs on one database deliver each event once between them. The two run in this process on
 * PostgreSQL (SQLite's locks are per process: two hubs sharing a file are two processes, which take tens of
 * seconds to start here; the queue's claims are the same SQL on both databases).
 */
let temp: ReturnType<typeof makeTempDir>;
const receivers: Receiver[] = [];
let postgres: { url: string; stop(): void } | undefined;
const hubs: RunningHub[] = [];

beforeAll(() => {
  temp = makeTempDir();
});
afterAll(async () => {
  await Promise.all(hubs.map((hub) => hub.close()));
  postgres?.stop();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  temp?.remove();
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}

async function send(hubUrl: string, token: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${hubUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field
  return JSON.parse(text) as any;
}

async function commit(hubUrl: string, token: string, id: string, path: string): Promise<string> {
  const response = await fetch(`${hubUrl}/api/models/${id}/commit/main`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: `add ${path}` } },
      { key: "file", value: { path, content: Buffer.from(path).toString("base64"), encoding: "base64" } },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { commitOid: string }).commitOid;
}

async function setUp(hubUrl: string, token: string, repo: string, target: Receiver): Promise<string> {
  await send(hubUrl, token, "POST", "/api/repos/create", { type: "model", name: repo.split("/")[1] });
  const created = await send(hubUrl, token, "POST", "/api/settings/webhooks", {
    watched: [{ type: "model", name: repo }],
    url: target.url,
  });
  return created.webhook.id as string;
}

describe("the delivery queue", () => {
  it("delivers after a restart what a stopped hub left pending", async () => {
    const dataDir = join(temp.dir, "restart");
    const options = {
      dataDir,
      providerSim: false,
      catalogueDir: FIXTURE_CATALOGUE_DIR,
      webhooks: { allowPrivate: true, workers: true, delivery: { pollMs: 50, retryBaseMs: 40 } },
    };
    const first = await startTestHub(options);
    hubs.push(first);
    const token = await userToken(first.store, "alice");
    const target = await receiver();
    await setUp(first.url, token, "alice/restarted", target);
    target.failNext(1_000);
    const oid = await commit(first.url, token, "alice/restarted", "a.txt");
    // One attempt failed: the delivery is pending (a retry due) when the hub stops.
    await target.waitFor((all) => all.length >= 1);
    await first.close();
    hubs.splice(hubs.indexOf(first), 1);
    const attemptsBefore = target.received.length;
    target.failNext(0);

    const second = await startTestHub(options);
    hubs.push(second);
    await target.waitFor((all) => all.some((r) => r.answered === 200));
    const delivered = target.received.filter((r) => r.answered === 200);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.body.updatedRefs[0].newSha).toBe(oid);
    expect(target.received.length).toBe(attemptsBefore + 1);
  });

  it("shares the queue between two hubs on one database: each event is delivered once", async () => {
    postgres = await ownPostgresUrl("webhooks");
    const replica = async (name: string) => {
      const hub = await startTestHub({
        dataDir: join(temp.dir, name),
        databaseUrl: postgres!.url,
        providerSim: false,
        catalogueDir: FIXTURE_CATALOGUE_DIR,
        webhooks: { allowPrivate: true, workers: true, delivery: { pollMs: 50 } },
      });
      hubs.push(hub);
      return hub;
    };
    // One after the other: the first migrates the database.
    const a = await replica("a");
    const b = await replica("b");
    const token = await userToken(a.store, "alice");
    const target = await receiver();
    const webhookId = await setUp(a.url, token, "alice/replicated", target);
    const commits: string[] = [];
    for (let i = 0; i < 8; i++)
      commits.push(await commit(i % 2 ? b.url : a.url, token, "alice/replicated", `${i}.txt`));

    await target.waitFor((all) => all.length >= commits.length, 30_000);
    // Every delivery is logged as delivered once the receiver has them all (it records before answering).
    const deadline = Date.now() + 30_000;
    let log: { status: string; attempts: number }[] = [];
    for (;;) {
      log = (await send(b.url, token, "GET", `/api/settings/webhooks/${webhookId}/deliveries`, undefined))
        .deliveries;
      if (log.every((d) => d.status === "delivered") || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(log).toHaveLength(commits.length);
    expect(log.every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
    const delivered = target.received.map((r) => r.body.updatedRefs[0].newSha as string);
    expect(delivered.sort()).toEqual([...commits].sort());
  }, 120_000);
});
