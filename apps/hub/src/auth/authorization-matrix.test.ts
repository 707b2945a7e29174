/**
 * The authorization matrix: ONE table of routes × callers → expected outcome, run against a real hub over
 * HTTP (the node:http router included). Every refusal is also checked to have written nothing, and the
 * table is checked to name every route the hub has (route-inventory.ts), so a new route cannot be forgotten.
 * The rows are in __fixtures__/matrix/*-rows.ts; the callers and shared expectations in callers.ts.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";
import { listTables, tableRows } from "../store/schema-tables.js";
import { ACCOUNT_ROWS } from "./__fixtures__/matrix/account-rows.js";
import { AUDIT_ROWS } from "./__fixtures__/matrix/audit-rows.js";
import { BUCKET_ROWS, seedBuckets } from "./__fixtures__/matrix/bucket-rows.js";
import { CALLERS, type Caller, type Row } from "./__fixtures__/matrix/callers.js";
import { CATALOGUE_ROWS } from "./__fixtures__/matrix/catalogue-rows.js";
import { COLLECTION_ROWS, seedCollections } from "./__fixtures__/matrix/collection-rows.js";
import { ENGAGEMENT_ROWS } from "./__fixtures__/matrix/engagement-rows.js";
import { fixture, PRIVATE, seedMatrix } from "./__fixtures__/matrix/fixture.js";
import { ORG_PROVIDER_ROWS } from "./__fixtures__/matrix/org-provider-rows.js";
import { OWN_PROVIDER_ROWS } from "./__fixtures__/matrix/own-provider-rows.js";
import { QUOTA_ROWS } from "./__fixtures__/matrix/quota-rows.js";
import { REPO_ROWS, XET_CAS_ROWS } from "./__fixtures__/matrix/repo-rows.js";
import { hubRoutes, routesWithoutRows } from "./__fixtures__/matrix/route-inventory.js";
import { SEARCH_ROWS } from "./__fixtures__/matrix/search-rows.js";
import { SPACE_ROWS, seedSpaceSite } from "./__fixtures__/matrix/space-rows.js";
import { VIEWER_ROWS } from "./__fixtures__/matrix/viewer-rows.js";
import { seedWebhooks, WEBHOOK_ROWS } from "./__fixtures__/matrix/webhook-rows.js";

const TABLE: Row[] = [
  ...CATALOGUE_ROWS,
  ...ACCOUNT_ROWS,
  ...REPO_ROWS,
  ...ENGAGEMENT_ROWS,
  ...XET_CAS_ROWS,
  ...OWN_PROVIDER_ROWS,
  ...ORG_PROVIDER_ROWS,
  ...VIEWER_ROWS,
  ...COLLECTION_ROWS,
  ...WEBHOOK_ROWS,
  ...AUDIT_ROWS,
  ...QUOTA_ROWS,
  ...SEARCH_ROWS,
  ...SPACE_ROWS,
  ...BUCKET_ROWS,
];

let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;

beforeAll(async () => {
  temp = makeTempDir();
  hub = await startTestHub({
    dataDir: join(temp.dir, "data"),
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    // Configured but unreachable: the single sign-on routes exist and fail closed.
    oidc: { issuer: "http://127.0.0.1:9", clientId: "matrix", clientSecret: "matrix-secret" },
    // Organizations' providers on loopback (refused by default): their rows point at a closed port.
    orgProvidersAllowPrivate: true,
  });
  await seedMatrix(hub);
  await seedCollections(hub.url);
  await seedSpaceSite(hub.url);
  await seedWebhooks(hub.url);
  await seedBuckets(hub.url);
}, 60_000);
afterAll(async () => {
  await hub?.close();
  temp?.remove();
});

/** Every table's rows, on whichever database the hub runs: what "nothing written" compares. */
async function databaseState(): Promise<string> {
  await hub.store.usage.flush();
  const db = hub.store.db;
  // A failed sign-in is counted (the rate limit): that is the refusal's purpose, not a write it allowed.
  // The scanner's queue is written after a commit answered (its files are queued off the request path).
  const tables = (await listTables(db)).filter(
    (name) => name !== "sign_in_failures" && name !== "scan_queue",
  );
  const dumps: string[] = [];
  for (const name of tables) {
    // last_used_at and a session's last_seen_at move on reads: they are not writes a caller asked for.
    const rows = (await tableRows(db, name))
      // A failed sign-in's audit entry is the refusal's record, as its count is (above).
      .filter((row) => !(name === "audit_log" && row.action === "signin.failure"))
      .map(({ last_used_at: _u, last_seen_at: _s, ...rest }) => JSON.stringify(rest));
    dumps.push(`${name}:${rows.sort().join(",")}`);
  }
  return dumps.join("\n");
}

async function call(row: Row, caller: Caller) {
  const token = fixture.tokenOf[caller];
  const body = typeof row.body === "function" ? row.body(caller) : row.body;
  const path = typeof row.path === "function" ? row.path(caller) : row.path;
  const response = await fetch(`${hub.url}${path}`, {
    method: row.method,
    redirect: "manual",
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(row.rawBody ? { "Content-Type": row.rawBody.contentType } : {}),
      ...(row.method === "OPTIONS"
        ? { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "GET" }
        : {}),
      ...row.headers,
    },
    body: row.rawBody ? row.rawBody.text(caller) : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (a file, a streamed answer): the status is what matters.
  }
  return { response, body: parsed, text };
}

describe("authorization matrix", () => {
  it("has a row for every route the hub answers", async () => {
    const routes = await hubRoutes(hub.store, temp.dir);
    // The inventory itself must see the repository routes (named as the rows name them) and the sub-apps.
    expect(routes).toEqual(
      expect.arrayContaining([
        "GET /api/{type}s/{id}/tree",
        "GET /{id}/resolve/{revision}/{path}",
        "POST /{id}.git/info/lfs/objects/batch",
        "PUT /api/lfs-upload/{grant}",
        "PATCH /api/admin/users/:name",
        "GET /v1/models",
      ]),
    );
    const listed = new Set(TABLE.map((row) => row.route));
    expect(routesWithoutRows(routes, TABLE), "routes without a row in the table").toEqual([]);
    // And no row names a route the hub does not have (a renamed route would leave it testing nothing).
    expect(
      [...listed].filter((route) => !routes.includes(route)),
      "rows for unknown routes",
    ).toEqual([]);
  });

  it("sees a route declared on the app, and reports it until the table has a row", async () => {
    const routes = await hubRoutes(hub.store, temp.dir, (app) => {
      app.post("/api/brand-new-feature/:name", (c) => c.json({ ok: true }));
    });
    expect(routes).toContain("POST /api/brand-new-feature/:name");
    expect(routesWithoutRows(routes, TABLE)).toEqual(["POST /api/brand-new-feature/:name"]);
  });

  for (const row of TABLE) {
    it(`${row.method} ${typeof row.path === "string" ? row.path : row.route} (${row.name})`, {
      timeout: 30_000,
    }, async () => {
      const outcomes: Record<string, number | string> = {};
      // One snapshot per call: the state after one caller is the state before the next.
      let before = await databaseState();
      for (const caller of CALLERS) {
        const { response, body, text } = await call(row, caller);
        outcomes[caller] = row.outcome ? row.outcome(response, body) : response.status;
        // No answer, refusal or not, echoes the caller's credential.
        const token = fixture.tokenOf[caller];
        if (token) expect(text).not.toContain(token);
        const after = await databaseState();
        const hubRefused = row.forwarded ? [401, 403].includes(response.status) : response.status >= 400;
        if (hubRefused) expect(after, `${caller} was refused but something was written`).toBe(before);
        else if (!row.writes && !row.forwarded)
          expect(after, `${caller}: a read wrote something`).toBe(before);
        before = after;
      }
      expect(outcomes).toEqual(row.expected);
    });
  }

  it("answers a hidden repository exactly as a missing one", async () => {
    const info = CATALOGUE_ROWS[0]!;
    for (const caller of ["anonymous", "otherUser"] as Caller[]) {
      const hidden = await call({ ...info, path: `/api/models/${PRIVATE}` }, caller);
      const missing = await call({ ...info, path: "/api/models/acme/no-such-model" }, caller);
      expect(hidden.response.status).toBe(missing.response.status);
      expect(hidden.response.headers.get("x-error-code")).toBe("RepoNotFound");
      expect(missing.response.headers.get("x-error-code")).toBe("RepoNotFound");
      expect(hidden.response.headers.get("x-error-message")).toBe(
        missing.response.headers.get("x-error-message")?.replace("no-such-model", "private-model"),
      );
      const strip = (body: unknown) => {
        const { requestId: _r, ...rest } = body as Record<string, unknown>;
        return JSON.stringify(rest).replaceAll("private-model", "X").replaceAll("no-such-model", "X");
      };
      expect(strip(hidden.body)).toBe(strip(missing.body));
    }
  });
});
