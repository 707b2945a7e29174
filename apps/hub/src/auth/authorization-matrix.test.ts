/**
 * The authorization matrix: ONE table of routes × callers → expected outcome, run against a real hub over
 * HTTP (the node:http router included). Every refusal is also checked to have written nothing.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";
import { DATABASE_FILE } from "../store/store.js";

const CALLERS = [
  "anonymous",
  "reader",
  "writer",
  "orgAdmin",
  "otherUser",
  "revokedToken",
  "expiredToken",
  "readTokenOnWrite",
  "fineGrainedOutOfScope",
] as const;
type Caller = (typeof CALLERS)[number];

const PRIVATE = "acme/private-model";
const GATED = "acme/gated-model";
const PRIVATE_REPO = "acme/private-repo";
const CHAT = "meta-llama/Llama-3.1-8B-Instruct";

interface Row {
  name: string;
  method: "GET" | "POST" | "PUT";
  path: string;
  /** A JSON body; a function gets the caller's name (to keep created names unique). */
  body?: unknown | ((caller: Caller) => unknown);
  headers?: Record<string, string>;
  /** Turns the answer into the outcome the table names (by default, its status). */
  outcome?: (response: Response, body: unknown) => string;
  /** Whether a success writes to the database (refusals never may). */
  writes?: boolean;
  expected: Record<Caller, number | string>;
}

const listsPrivate = (response: Response, body: unknown) =>
  response.status !== 200
    ? String(response.status)
    : (body as Array<{ id: string }>).some((m) => m.id === PRIVATE)
      ? "listed"
      : "hidden";
/** The private model is a summarization model: counted when the summarization count includes it. */
const countsPrivate = (response: Response, body: unknown) =>
  response.status !== 200
    ? String(response.status)
    : (body as Record<string, { modelCount: number }>)["summarization"]!.modelCount === publicSummarizers + 1
      ? "counted"
      : "not counted";

const ORG_ADMIN_ONLY: Row["expected"] = {
  anonymous: 401,
  reader: 403,
  writer: 403,
  orgAdmin: 200,
  otherUser: 403,
  revokedToken: 401,
  expiredToken: 401,
  readTokenOnWrite: 403,
  fineGrainedOutOfScope: 403,
};
const ORG_ADMIN_ONLY_201: Row["expected"] = { ...ORG_ADMIN_ONLY, orgAdmin: 201 };

// The private repository belongs to acme: its members read it, writers write, admins manage; to anyone
// else it does not exist (404, or 401 without credentials, as for a missing one).
const READ_PRIVATE_REPO: Row["expected"] = {
  anonymous: 401,
  reader: 200,
  writer: 200,
  orgAdmin: 200,
  otherUser: 404,
  revokedToken: 401,
  expiredToken: 401,
  readTokenOnWrite: 200,
  fineGrainedOutOfScope: 404,
};
const WRITE_PRIVATE_REPO: Row["expected"] = { ...READ_PRIVATE_REPO, reader: 403, readTokenOnWrite: 403 };
const MANAGE_PRIVATE_REPO: Row["expected"] = { ...WRITE_PRIVATE_REPO, writer: 403 };

// Statuses: 401 anonymous or invalid credentials, 403 known caller without the right, 404 hidden repository.
const TABLE: Row[] = [
  {
    name: "model info of a private model",
    method: "GET",
    path: `/api/models/${PRIVATE}`,
    expected: {
      anonymous: 401,
      reader: 200,
      writer: 200,
      orgAdmin: 200,
      otherUser: 404,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 200,
      fineGrainedOutOfScope: 404,
    },
  },
  {
    name: "snippets of a private model",
    method: "GET",
    path: `/api/models/${PRIVATE}/snippets?provider=together`,
    expected: {
      anonymous: 401,
      reader: 200,
      writer: 200,
      orgAdmin: 200,
      otherUser: 404,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 200,
      fineGrainedOutOfScope: 404,
    },
  },
  {
    name: "library snippets of a private model",
    method: "GET",
    path: `/api/models/${PRIVATE}/library-snippets`,
    expected: {
      anonymous: 401,
      reader: 200,
      writer: 200,
      orgAdmin: 200,
      otherUser: 404,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 200,
      fineGrainedOutOfScope: 404,
    },
  },
  {
    name: "listing of acme's models",
    method: "GET",
    path: "/api/models?author=acme&limit=100",
    outcome: listsPrivate,
    expected: {
      anonymous: "hidden",
      reader: "listed",
      writer: "listed",
      orgAdmin: "listed",
      otherUser: "hidden",
      revokedToken: "401",
      expiredToken: "401",
      readTokenOnWrite: "listed",
      fineGrainedOutOfScope: "hidden",
    },
  },
  {
    name: "search for the private model",
    method: "GET",
    path: "/api/models?search=private-model",
    outcome: listsPrivate,
    expected: {
      anonymous: "hidden",
      reader: "listed",
      writer: "listed",
      orgAdmin: "listed",
      otherUser: "hidden",
      revokedToken: "401",
      expiredToken: "401",
      readTokenOnWrite: "listed",
      fineGrainedOutOfScope: "hidden",
    },
  },
  {
    name: "task counts",
    method: "GET",
    path: "/api/tasks",
    outcome: countsPrivate,
    expected: {
      anonymous: "not counted",
      reader: "counted",
      writer: "counted",
      orgAdmin: "counted",
      otherUser: "not counted",
      revokedToken: "401",
      expiredToken: "401",
      readTokenOnWrite: "counted",
      fineGrainedOutOfScope: "not counted",
    },
  },
  {
    name: "whoami",
    method: "GET",
    path: "/api/whoami-v2",
    expected: {
      anonymous: 401,
      reader: 200,
      writer: 200,
      orgAdmin: 200,
      otherUser: 200,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 200,
      fineGrainedOutOfScope: 200,
    },
  },
  {
    name: "download a file of a gated repository nobody granted",
    method: "GET",
    path: `/${GATED}/resolve/main/.gitattributes`,
    // Members pass the gate; another user is refused with GatedRepo (403); a fine-grained token reads any
    // repository it can see, and acme's members can see this one.
    expected: { ...READ_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 200 },
  },
  {
    name: "ask for access to a gated model",
    method: "POST",
    path: `/api/models/${GATED}/ask-access`,
    body: { fields: { purpose: "research" } },
    writes: true,
    expected: {
      anonymous: 401,
      reader: 200,
      writer: 200,
      orgAdmin: 200,
      otherUser: 200,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 200,
      fineGrainedOutOfScope: 200,
    },
  },
  {
    name: "list a gated model's pending requests",
    method: "GET",
    path: `/api/models/${GATED}/user-access-request/pending`,
    expected: {
      anonymous: 401,
      reader: 403,
      writer: 403,
      orgAdmin: 200,
      otherUser: 403,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 403,
      fineGrainedOutOfScope: 403,
    },
  },
  {
    name: "grant access to a gated model",
    method: "POST",
    path: `/api/models/${GATED}/user-access-request/grant`,
    body: { user: "otto" },
    writes: true,
    expected: {
      anonymous: 401,
      reader: 403,
      writer: 403,
      orgAdmin: 200,
      otherUser: 403,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 403,
      fineGrainedOutOfScope: 403,
    },
  },
  {
    name: "list a private model's requests (hidden first)",
    method: "GET",
    path: `/api/models/${PRIVATE_REPO}/user-access-request/pending`,
    expected: {
      anonymous: 401,
      reader: 403,
      writer: 403,
      orgAdmin: 200,
      otherUser: 404,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 403,
      fineGrainedOutOfScope: 404,
    },
  },
  {
    name: "create a repository in the organization",
    method: "POST",
    path: "/api/repos/create",
    body: (caller: Caller) => ({
      type: "model",
      name: `made-by-${caller}`,
      organization: "acme",
      private: true,
    }),
    writes: true,
    expected: {
      anonymous: 401,
      reader: 403,
      writer: 200,
      orgAdmin: 200,
      otherUser: 403,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 403,
      fineGrainedOutOfScope: 403,
    },
  },
  {
    name: "admin API",
    method: "GET",
    path: "/api/admin/tokens",
    expected: {
      anonymous: 401,
      reader: 403,
      writer: 403,
      orgAdmin: 403,
      otherUser: 403,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 403,
      fineGrainedOutOfScope: 403,
    },
  },
  {
    name: "router call billed to the organization",
    method: "POST",
    path: "/router/v1/chat/completions",
    headers: { "X-HF-Bill-To": "acme" },
    body: { model: `${CHAT}:together`, messages: [{ role: "user", content: "hi" }], max_tokens: 4 },
    writes: true,
    expected: {
      anonymous: 401,
      reader: 200,
      writer: 200,
      orgAdmin: 200,
      otherUser: 403,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 200,
      fineGrainedOutOfScope: 403,
    },
  },
  {
    name: "per-provider router call naming the private model",
    method: "POST",
    path: "/router/together/v1/chat/completions",
    body: { model: "acme/private", messages: [{ role: "user", content: "hi" }], max_tokens: 4 },
    writes: true,
    outcome: (response, body) =>
      response.status === 404 && JSON.stringify(body).includes("does not exist on this hub")
        ? "hidden"
        : response.status >= 400 && response.status !== 404
          ? String(response.status)
          : "forwarded",
    expected: {
      anonymous: "401",
      reader: "forwarded",
      writer: "forwarded",
      orgAdmin: "forwarded",
      otherUser: "hidden",
      revokedToken: "401",
      expiredToken: "401",
      readTokenOnWrite: "forwarded",
      fineGrainedOutOfScope: "403",
    },
  },
  {
    name: "create an organization",
    method: "POST",
    path: "/api/organizations",
    body: (caller: Caller) => ({ name: `org-of-${caller}` }),
    writes: true,
    expected: {
      anonymous: 401,
      reader: 403,
      writer: 201,
      orgAdmin: 201,
      otherUser: 201,
      revokedToken: 401,
      expiredToken: 401,
      readTokenOnWrite: 403,
      fineGrainedOutOfScope: 403,
    },
  },
  {
    name: "invite to the organization",
    method: "POST",
    path: "/api/organizations/acme/invites",
    body: { role: "read" },
    writes: true,
    expected: ORG_ADMIN_ONLY_201,
  },
  {
    name: "change a member's role",
    method: "PUT",
    path: "/api/organizations/acme/members/rae",
    body: { role: "read" },
    writes: true,
    expected: ORG_ADMIN_ONLY,
  },
  {
    name: "usage billed to the organization",
    method: "GET",
    path: "/api/organizations/acme/usage",
    expected: ORG_ADMIN_ONLY,
  },
  {
    name: "download a file of a private repository",
    method: "GET",
    path: `/${PRIVATE_REPO}/resolve/main/.gitattributes`,
    expected: READ_PRIVATE_REPO,
  },
  {
    name: "list a private repository's files",
    method: "GET",
    path: `/api/models/${PRIVATE_REPO}/tree/main`,
    expected: READ_PRIVATE_REPO,
  },
  {
    name: "list a private repository's commits",
    method: "GET",
    path: `/api/models/${PRIVATE_REPO}/commits/main`,
    expected: READ_PRIVATE_REPO,
  },
  {
    name: "ask which files of a commit go to LFS",
    method: "POST",
    path: `/api/models/${PRIVATE_REPO}/preupload/main`,
    body: { files: [{ path: "weights.bin", size: 20_000_000, sample: "" }] },
    expected: WRITE_PRIVATE_REPO,
  },
  {
    name: "a Xet write token for a private repository",
    method: "GET",
    path: `/api/models/${PRIVATE_REPO}/xet-write-token/main`,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    name: "open a discussion on a private repository",
    method: "POST",
    path: `/api/models/${PRIVATE_REPO}/discussions`,
    body: (caller: Caller) => ({ title: `From ${caller}`, description: "Hello", pullRequest: false }),
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    name: "change a private repository's settings",
    method: "PUT",
    path: `/api/models/${PRIVATE_REPO}/settings`,
    body: { private: true },
    writes: true,
    expected: MANAGE_PRIVATE_REPO,
  },
];

let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;
let db: Database.Database;
let tokenOf: Record<Caller, string | undefined>;
let publicSummarizers = 0;

beforeAll(async () => {
  temp = makeTempDir();
  hub = await startTestHub({ dataDir: join(temp.dir, "data"), catalogueDir: FIXTURE_CATALOGUE_DIR });
  const { tokens } = await seedAccounts(hub.store);
  tokenOf = {
    anonymous: undefined,
    reader: tokens.raeRead,
    writer: tokens.wesWrite,
    orgAdmin: tokens.adaWrite,
    otherUser: tokens.ottoWrite,
    revokedToken: tokens.wesRevoked,
    expiredToken: tokens.wesExpired,
    readTokenOnWrite: tokens.wesRead,
    fineGrainedOutOfScope: tokens.wesScopedToSelf,
  };
  const summarizer = (await hub.store.models.get("facebook/bart-large-cnn"))!;
  publicSummarizers = (await hub.store.models.countsByPipeline()).get("summarization") ?? 0;
  await hub.store.models.upsert({ ...summarizer, id: PRIVATE, private: true, gated: false });
  await hub.store.mappings.set(PRIVATE, "together", {
    status: "live",
    providerId: "acme/private",
    task: "summarization",
  });
  // Repositories with files (gated and private), made through the API by the organization's admin.
  const asAdmin = { Authorization: `Bearer ${tokens.adaWrite}`, "Content-Type": "application/json" };
  for (const [id, settings] of [
    [GATED, { gated: "manual" }],
    [PRIVATE_REPO, { private: true }],
  ] as const) {
    const [organization, name] = id.split("/");
    const created = await fetch(`${hub.url}/api/repos/create`, {
      method: "POST",
      headers: asAdmin,
      body: JSON.stringify({ type: "model", name, organization }),
    });
    expect(created.status).toBe(200);
    const set = await fetch(`${hub.url}/api/models/${id}/settings`, {
      method: "PUT",
      headers: asAdmin,
      body: JSON.stringify(settings),
    });
    expect(set.status).toBe(200);
  }
  db = new Database(join(temp.dir, "data", DATABASE_FILE), { readonly: true });
});
afterAll(async () => {
  db?.close();
  await hub?.close();
  temp?.remove();
});

/** Every table's row count and content digest: what "nothing written" compares. */
async function databaseState(): Promise<string> {
  await hub.store.usage.flush();
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((t) => t.name)
    // last_used_at and a session's last_seen_at move on reads: they are not writes a caller asked for.
    .filter((name) => name !== "sign_in_failures");
  return tables
    .map((name) => {
      const rows = db.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>;
      return `${name}:${JSON.stringify(rows.map(({ last_used_at: _u, last_seen_at: _s, ...rest }) => rest))}`;
    })
    .join("\n");
}

async function call(row: Row, caller: Caller) {
  const token = tokenOf[caller];
  const body = typeof row.body === "function" ? row.body(caller) : row.body;
  const response = await fetch(`${hub.url}${row.path}`, {
    method: row.method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...row.headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (a streamed answer): the status is what matters.
  }
  return { response, body: parsed, text };
}

describe("authorization matrix", () => {
  for (const row of TABLE) {
    it(`${row.method} ${row.path} (${row.name})`, async () => {
      const outcomes: Record<string, number | string> = {};
      for (const caller of CALLERS) {
        const before = await databaseState();
        const { response, body, text } = await call(row, caller);
        outcomes[caller] = row.outcome ? row.outcome(response, body) : response.status;
        if (response.status >= 400) {
          expect(await databaseState(), `${caller} was refused but something was written`).toBe(before);
          // A refusal never echoes a credential.
          const token = tokenOf[caller];
          if (token) expect(text).not.toContain(token);
        } else if (!row.writes) {
          expect(await databaseState(), `${caller}: a read wrote something`).toBe(before);
        }
      }
      expect(outcomes).toEqual(row.expected);
    });
  }

  it("answers a hidden repository exactly as a missing one", async () => {
    for (const caller of ["anonymous", "otherUser"] as Caller[]) {
      const hidden = await call({ ...TABLE[0]!, path: `/api/models/${PRIVATE}` }, caller);
      const missing = await call({ ...TABLE[0]!, path: "/api/models/acme/no-such-model" }, caller);
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
