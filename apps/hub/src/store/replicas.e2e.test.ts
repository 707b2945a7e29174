import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { type HubProcess, startHubProcess } from "../__fixtures__/hub-process.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { ownPostgresUrl } from "../__fixtures__/test-store.js";
import { accountsService } from "../accounts/accounts-service.js";
import { MIGRATIONS } from "./migrations.js";
import { openStore, type Store } from "./store.js";

/**
 * Replicas: two hub processes (the real server entry, each with its own connection pool and caches) on one
 * PostgreSQL database and one blob directory (DATA_DIR shared, as a network mount would be), what a load
 * balancer spreads requests over. The test itself reaches the database only as the admin CLI does (tokens).
 */
let postgres: { url: string; stop(): void };
let temp: ReturnType<typeof makeTempDir>;
let admin: Store;
let a: HubProcess;
let b: HubProcess;
const started: HubProcess[] = [];

async function replica(): Promise<HubProcess> {
  const hub = await startHubProcess({
    DATABASE_URL: postgres.url,
    DATA_DIR: join(temp.dir, "shared"),
    ADMIN_TOKEN: METRICS_TOKEN,
  });
  started.push(hub);
  return hub;
}

beforeAll(async () => {
  postgres = await ownPostgresUrl("replicas");
  temp = makeTempDir();
  // Both start at once on an empty database: one migrates, the other waits for it (an advisory lock).
  [a, b] = await Promise.all([replica(), replica()]);
  admin = await openStore({ dataDir: temp.dir, databaseUrl: postgres.url, databasePoolSize: 2 });
}, 120_000);

afterAll(async () => {
  await Promise.all(started.map((hub) => hub.stop("SIGKILL")));
  await admin?.close();
  postgres?.stop();
  temp?.remove();
});

/** The operator's token: what a Prometheus scrape of /metrics sends. */
const METRICS_TOKEN = "replicas-test-admin-token";

const call = (hub: HubProcess, path: string, token?: string, init: RequestInit = {}) =>
  fetch(`${hub.url}${path}`, {
    ...init,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(init.body ? { "Content-Type": "application/json" } : {}),
      ...(init.headers as Record<string, string> | undefined),
    },
  });

describe("two hub processes on one PostgreSQL and one blob store", () => {
  it("both start at once and the schema is migrated once", async () => {
    // A second run of a migration would have failed that process's start (its tables exist already).
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const versions = await client.query("SELECT version FROM schema_version");
      expect(versions.rows).toEqual([{ version: MIGRATIONS.length }]);
    } finally {
      await client.end();
    }
    for (const hub of [a, b]) expect((await call(hub, "/readyz")).status).toBe(200);
    // Each reports its own connection pool.
    const metrics = await (await call(a, "/metrics", METRICS_TOKEN)).text();
    expect(Number(/hub_database_pool_connections\{state="total"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThan(
      0,
    );
    expect(metrics).toMatch(/hub_database_pool_connections\{state="waiting"\} \d+/);
  });

  it("a write through one is read through the other at once; a commit through one is in the other's listings", async () => {
    const token = await userToken(admin, "alice");
    const created = await call(a, "/api/repos/create", token, {
      method: "POST",
      body: JSON.stringify({ name: "alice/replicated", type: "model" }),
    });
    expect(created.status).toBe(200);
    expect((await call(b, "/api/models/alice/replicated", token)).status).toBe(200);
    const committed = await call(a, "/api/models/alice/replicated/commit/main", token, {
      method: "POST",
      headers: { "Content-Type": "application/x-ndjson" },
      body: [
        { key: "header", value: { summary: "through a" } },
        {
          key: "file",
          value: { path: "hello.txt", content: Buffer.from("hi").toString("base64"), encoding: "base64" },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    });
    expect(committed.status).toBe(200);
    const listed = (await (await call(b, "/api/models?author=alice")).json()) as Array<{ id: string }>;
    expect(listed.map((model) => model.id)).toContain("alice/replicated");
    const tree = (await (await call(b, "/api/models/alice/replicated/tree/main", token)).json()) as Array<{
      path: string;
    }>;
    expect(tree.map((entry) => entry.path)).toContain("hello.txt");
    // The file's bytes, written by a into the shared blob store, served by b.
    expect(await (await call(b, "/alice/replicated/resolve/main/hello.txt", token)).text()).toBe("hi");
  });

  it("model info and HEAD /resolve on one are never stale after a commit or a settings change on the other", async () => {
    const token = await userToken(admin, "alice");
    const created = await call(a, "/api/repos/create", token, {
      method: "POST",
      body: JSON.stringify({ name: "alice/kept-answers", type: "model" }),
    });
    expect(created.status).toBe(200);
    const commitThrough = async (hub: HubProcess, path: string, text: string, revision = "main") => {
      const answer = await call(hub, `/api/models/alice/kept-answers/commit/${revision}`, token, {
        method: "POST",
        headers: { "Content-Type": "application/x-ndjson" },
        body: [
          { key: "header", value: { summary: `${path} through one` } },
          { key: "file", value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" } },
        ]
          .map((line) => JSON.stringify(line))
          .join("\n"),
      });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { commitOid: string }).commitOid;
    };
    const info = async () =>
      (await (await call(b, "/api/models/alice/kept-answers", token)).json()) as {
        sha: string;
        siblings: { rfilename: string }[];
        private: boolean;
      };
    for (const round of [1, 2, 3]) {
      // b answers (and keeps) the current revision first, then a commits.
      await info();
      const head = await call(b, "/alice/kept-answers/resolve/main/config.json", token, { method: "HEAD" });
      const commitOid = await commitThrough(a, "config.json", JSON.stringify({ round }));
      const after = await info();
      expect(after.sha).toBe(commitOid);
      expect(after.siblings.map((file) => file.rfilename)).toContain("config.json");
      const headAfter = await call(b, "/alice/kept-answers/resolve/main/config.json", token, {
        method: "HEAD",
      });
      expect(headAfter.headers.get("x-repo-commit")).toBe(commitOid);
      if (round > 1) expect(headAfter.headers.get("etag")).not.toBe(head.headers.get("etag"));
    }
    // A pull-request commit moves no lastModified: b hears of its new content through PostgreSQL NOTIFY.
    const usedStorage = async () =>
      (
        (await (await call(b, "/api/models/alice/kept-answers?expand[]=usedStorage", token)).json()) as {
          usedStorage: number;
        }
      ).usedStorage;
    const stored = await usedStorage();
    await commitThrough(a, "pr.bin", "p".repeat(3000), "main?create_pr=1");
    await expect.poll(usedStorage, { timeout: 1000, interval: 20 }).toBe(stored + 3000);
    // Made private through a: b's kept answer says so at once, and a stranger is refused there.
    const settings = await call(a, "/api/models/alice/kept-answers/settings", token, {
      method: "PUT",
      body: JSON.stringify({ private: true }),
    });
    expect(settings.status).toBe(200);
    expect((await info()).private).toBe(true);
    const stranger = await userToken(admin, "mallory");
    expect((await call(b, "/api/models/alice/kept-answers", stranger)).status).toBe(404);
    expect(
      (await call(b, "/alice/kept-answers/resolve/main/config.json", stranger, { method: "HEAD" })).status,
    ).toBe(404);
  });

  it("commits to one branch from both at once serialize: every one lands, in one line of history", async () => {
    const token = await userToken(admin, "carol");
    expect(
      (
        await call(a, "/api/repos/create", token, {
          method: "POST",
          body: JSON.stringify({ name: "carol/busy" }),
        })
      ).status,
    ).toBe(200);
    const commit = (hub: HubProcess, i: number) =>
      call(hub, "/api/models/carol/busy/commit/main", token, {
        method: "POST",
        headers: { "Content-Type": "application/x-ndjson" },
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
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => commit(i % 2 ? a : b, i)));
    expect(results.map((response) => response.status)).toEqual(Array(12).fill(200));
    const history = (await (
      await call(b, "/api/models/carol/busy/commits/main?limit=100", token)
    ).json()) as unknown[];
    // 12 commits on top of the initial one, none lost to a concurrent head update.
    expect(history).toHaveLength(13);
    const tree = (await (await call(a, "/api/models/carol/busy/tree/main", token)).json()) as Array<{
      path: string;
    }>;
    expect(tree.filter((entry) => entry.path.startsWith("f"))).toHaveLength(12);
  });

  it("one name created through both at once: one is created, the other answers the public hub's 409", async () => {
    const token = await userToken(admin, "ivy");
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    /**
     * Lines both replicas up on the unique constraint, as two requests arriving at the same moment do: an
     * uncommitted row of that name, invisible to their checks, makes both inserts wait; when it is rolled
     * back, one insert goes on and the other fails on the constraint once the first commits.
     */
    const race = async (blocker: string, params: unknown[], send: (hub: HubProcess) => Promise<Response>) => {
      await client.query("BEGIN");
      await client.query(blocker, params);
      const answers = Promise.all([send(a), send(b)]);
      const waiting = async () =>
        Number(
          (
            await admin.db.get<{ n: number }>(
              "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
            )
          )?.n,
        );
      const deadline = Date.now() + 10_000;
      while ((await waiting()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await client.query("ROLLBACK");
      const responses = await answers;
      const bodies = await Promise.all(
        responses.map(async (r) => ({ status: r.status, body: await r.json() })),
      );
      return bodies.sort((x, y) => x.status - y.status);
    };
    try {
      const now = new Date().toISOString();
      for (const type of ["model", "dataset"] as const) {
        const [won, lost] = await race(
          "INSERT INTO repos (type, name, owner, created_at, last_modified) VALUES ($1, $2, $3, $4, $4)",
          [type, "ivy/raced", "ivy", now],
          (hub) =>
            call(hub, "/api/repos/create", token, {
              method: "POST",
              body: JSON.stringify({ name: "raced", organization: "ivy", type }),
            }),
        );
        expect(won!.status).toBe(200);
        // What huggingface_hub's create_repo(exist_ok=True) reads as "already there".
        expect(lost).toMatchObject({
          status: 409,
          body: {
            code: "conflict",
            error: expect.stringContaining("ivy/raced"),
            url: expect.stringContaining("ivy/raced"),
          },
        });
      }
      const [won, lost] = await race(
        "INSERT INTO accounts (kind, name, created_at) VALUES ('org', $1, $2)",
        ["raced-org", now],
        (hub) =>
          call(hub, "/api/organizations", token, {
            method: "POST",
            body: JSON.stringify({ name: "raced-org" }),
          }),
      );
      expect(won!.status).toBe(201);
      expect(lost).toMatchObject({ status: 409, body: { code: "conflict" } });
    } finally {
      await client.end();
    }
  });

  it("a token revoked through one is refused by the other within 100 ms", async () => {
    const token = await userToken(admin, "dave");
    const whoami = () => call(b, "/api/whoami-v2", token);
    // b has verified (and cached) the token.
    expect((await whoami()).status).toBe(200);
    const listed = (await (await call(a, "/api/settings/tokens", token)).json()) as Array<{ id: number }>;
    const revoke = await call(a, `/api/settings/tokens/${listed[0]!.id}`, token, { method: "DELETE" });
    expect(revoke.status).toBeLessThan(300);
    // From the revocation's answer (it is stored then) to the other process's first refusal. A request is
    // sent every 5 ms without waiting for the one before, so the first refusal's answer is late by one
    // request's own time, not by a queue of them: the figure is an upper bound, as tight as the machine allows.
    const revokedAt = performance.now();
    const delay = await new Promise<number>((resolve, reject) => {
      let done = false;
      const timer = setInterval(() => {
        if (performance.now() - revokedAt > 2000) {
          clearInterval(timer);
          reject(new Error("still accepted 2 s after the revocation"));
          return;
        }
        void whoami().then((response) => {
          if (response.status === 401 && !done) {
            done = true;
            clearInterval(timer);
            resolve(performance.now() - revokedAt);
          }
        }, reject);
      }, 5);
    });
    console.log(`replicas: revocation through one process refused by the other after ${delay.toFixed(1)} ms`);
    expect(delay).toBeLessThan(100);
  });

  it("sign-in failures count on both: the rate limit is shared", async () => {
    await accountsService(admin.accounts).createUser({ name: "erin", password: "a-long-password-1" });
    const signIn = (hub: HubProcess) =>
      call(hub, "/api/auth/signin", undefined, {
        method: "POST",
        body: JSON.stringify({ name: "erin", password: "wrong-password-000" }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await signIn(i % 2 ? a : b)).status);
    // Refused as wrong at first, then limited (429) whichever replica is asked.
    expect(statuses[0]).toBe(401);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });

  it("access requests and router usage are written once, whichever replica takes them", async () => {
    const owner = await userToken(admin, "gina");
    const asker = await userToken(admin, "hal");
    expect(
      (
        await call(a, "/api/repos/create", owner, {
          method: "POST",
          body: JSON.stringify({ name: "gina/gated" }),
        })
      ).status,
    ).toBe(200);
    const gated = await call(b, "/api/models/gina/gated/settings", owner, {
      method: "PUT",
      body: JSON.stringify({ gated: "manual" }),
    });
    expect(gated.status).toBe(200);
    // The same user asks through both replicas at once: one request, pending.
    const asked = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(i % 2 ? a : b, "/api/models/gina/gated/ask-access", asker, {
          method: "POST",
          body: JSON.stringify({ why: `${i}` }),
        }),
      ),
    );
    expect(asked.map((response) => response.status)).toEqual(Array(8).fill(200));
    const requests = await admin.accounts.accessRequests.list("model", "gina/gated");
    expect(requests.map((request) => [request.user.name, request.status])).toEqual([["hal", "pending"]]);

    // One chat through each replica (their provider-sim answers): two calls, two usage rows, no more.
    const hal = (await admin.accounts.users.byName("hal"))!;
    const [token] = await admin.accounts.tokens.list(hal.id);
    for (const hub of [a, b]) {
      const chat = await call(hub, "/v1/chat/completions", asker, {
        method: "POST",
        body: JSON.stringify({
          // Public and ungated: a gated model would need the asker's grant for the router too.
          model: "Qwen/Qwen2.5-7B-Instruct",
          messages: [{ role: "user", content: "Hi" }],
        }),
      });
      expect(chat.status).toBe(200);
    }
    // Each replica writes its records within 50 ms (usage-table.ts); give them a moment under load.
    let requested = 0;
    for (let tries = 0; tries < 50 && requested < 2; tries++) {
      requested = (await admin.usage.summary(token!.id)).reduce((n, row) => n + row.requests, 0);
      if (requested < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await admin.usage.summary(token!.id)).reduce((n, row) => n + row.requests, 0)).toBe(2);
  });

  it("a third starts and one stops while the other serves, which answers every request meanwhile", async () => {
    const token = await userToken(admin, "frank");
    let serving = true;
    const statuses: number[] = [];
    const load = (async () => {
      while (serving) {
        const response = await call(b, "/api/models?author=alice", token).catch(() => undefined);
        statuses.push(response?.status ?? 0);
        await response?.arrayBuffer();
      }
    })();
    const c = await replica();
    expect((await call(c, "/api/models/alice/replicated", token)).status).toBe(200);
    // a stops gracefully (SIGTERM): its exit code says it closed its pool and listeners cleanly.
    expect(await a.stop()).toBe(0);
    expect(await c.stop()).toBe(0);
    serving = false;
    await load;
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect((await call(b, "/api/whoami-v2", token)).status).toBe(200);
  }, 120_000);
});
