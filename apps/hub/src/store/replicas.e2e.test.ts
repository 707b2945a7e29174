import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { type PostgresServer, startPostgres } from "../__fixtures__/postgres-server.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { schemaUrl } from "../__fixtures__/test-store.js";
import { createApp } from "../app.js";
import { createFsBlobStore } from "../storage/fs-blob-store.js";
import { appliedVersion, MIGRATIONS } from "./migrations.js";
import { openStore, type Store } from "./store.js";

/**
 * Two hub instances (each with its own connection pool) on one PostgreSQL database and one blob directory:
 * what replicas behind a load balancer are. The shared server of the PostgreSQL run, or one of this file's.
 */
let server: PostgresServer | undefined;
let url: string;
let temp: ReturnType<typeof makeTempDir>;
const stores: Store[] = [];

async function replica() {
  const store = await openStore({ dataDir: temp.dir, databaseUrl: url, databasePoolSize: 4 });
  stores.push(store);
  const blobs = await createFsBlobStore(`${temp.dir}/blobs`);
  return { store, app: createApp({ store, blobs, publicUrl: "http://hub.test" }) };
}

let a: Awaited<ReturnType<typeof replica>>;
let b: Awaited<ReturnType<typeof replica>>;

beforeAll(async () => {
  let base = process.env.HUB_TEST_POSTGRES_URL;
  if (!base) {
    server = await startPostgres();
    base = server.url;
  }
  url = await schemaUrl(base, `replicas_${randomBytes(4).toString("hex")}`);
  temp = makeTempDir();
  // Both start at once on an empty database: one migrates, the other waits for it (advisory lock).
  [a, b] = await Promise.all([replica(), replica()]);
}, 60_000);

afterAll(async () => {
  for (const store of stores) await store.close();
  server?.stop();
  temp?.remove();
});

const json = (token: string, body?: unknown, method = "POST") => ({
  method,
  headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

describe("two replicas on one PostgreSQL", () => {
  it("migrate once, each starting at the same time", async () => {
    expect(await appliedVersion(a.store.db)).toBe(MIGRATIONS.length);
    expect(await b.store.schema()).toEqual({ applied: MIGRATIONS.length, known: MIGRATIONS.length });
  });

  it("a write through one is read through the other at once; a commit through one is in the other's listings", async () => {
    const token = await userToken(a.store, "alice");
    const created = await a.app.request(
      "/api/repos/create",
      json(token, { name: "alice/replicated", type: "model" }),
    );
    expect(created.status).toBe(200);
    const info = await b.app.request("/api/models/alice/replicated", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(info.status).toBe(200);
    const listed = (await (await b.app.request("/api/models?author=alice")).json()) as Array<{ id: string }>;
    expect(listed.map((model) => model.id)).toContain("alice/replicated");
  });

  it("commits to one branch from both replicas at once serialize: every one lands, in one line of history", async () => {
    const token = await userToken(a.store, "carol");
    expect(
      (await a.app.request("/api/repos/create", json(token, { name: "carol/busy", type: "model" }))).status,
    ).toBe(200);
    const commit = (app: typeof a.app, i: number) =>
      app.request("/api/models/carol/busy/commit/main", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
        body: [
          { key: "header", value: { summary: `commit ${i}` } },
          {
            key: "file",
            value: { path: `f${i}.txt`, content: Buffer.from(`${i}`).toString("base64"), encoding: "base64" },
          },
        ]
          .map((line) => JSON.stringify(line))
          .join("\n"),
      });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => commit(i % 2 ? a.app : b.app, i)));
    expect(results.map((response) => response.status)).toEqual(Array(12).fill(200));
    const history = (await (
      await b.app.request("/api/models/carol/busy/commits/main?limit=100", {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as Array<{ title: string }>;
    // 12 commits on top of the initial one, none lost to a concurrent head update.
    expect(history).toHaveLength(13);
    const tree = (await (
      await a.app.request("/api/models/carol/busy/tree/main", {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as Array<{ path: string }>;
    expect(tree.filter((entry) => entry.path.startsWith("f"))).toHaveLength(12);
  });

  it("a token revoked through one is refused by the other within 100 ms", async () => {
    const token = await userToken(a.store, "dave");
    const whoami = () => b.app.request("/api/whoami-v2", { headers: { Authorization: `Bearer ${token}` } });
    // b has verified (and cached) the token.
    expect((await whoami()).status).toBe(200);
    const listed = (await (
      await a.app.request("/api/settings/tokens", json(token, undefined, "GET"))
    ).json()) as Array<{
      id: number;
    }>;
    const revoke = await a.app.request(
      `/api/settings/tokens/${listed[0]!.id}`,
      json(token, undefined, "DELETE"),
    );
    expect(revoke.status).toBeLessThan(300);
    // From the revocation's answer (it is stored then) to the other replica's first refusal.
    const revokedAt = performance.now();
    let delay = 0;
    for (;;) {
      const status = (await whoami()).status;
      delay = performance.now() - revokedAt;
      if (status === 401) break;
      if (delay > 2000) throw new Error(`still accepted ${Math.round(delay)} ms after the revocation`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    console.log(`replicas: revocation through one refused by the other after ${delay.toFixed(1)} ms`);
    expect(delay).toBeLessThan(100);
  });

  it("sign-in failures count on both: the rate limit is shared", async () => {
    const service = await import("../accounts/accounts-service.js");
    await service
      .accountsService(a.store.accounts)
      .createUser({ name: "erin", password: "a-long-password-1" });
    const signIn = (app: typeof a.app) =>
      app.request("/api/auth/signin", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "erin", password: "wrong-password-000" }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await signIn(i % 2 ? a.app : b.app)).status);
    // Refused as wrong at first, then limited (429) whichever replica is asked.
    expect(statuses[0]).toBe(401);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  }, 60_000);
});
