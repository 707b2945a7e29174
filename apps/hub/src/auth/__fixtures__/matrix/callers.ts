/**
 * The authorization matrix's vocabulary: who calls (CALLERS), what a row of the table says (Row), and the
 * expectation shapes most routes share. The rows themselves are in the *-rows.ts files beside this one;
 * authorization-matrix.test.ts joins them into ONE table and runs it.
 */
export const CALLERS = [
  "anonymous",
  "reader",
  "writer",
  "orgAdmin",
  "otherUser",
  "revokedToken",
  "expiredToken",
  "readTokenOnWrite",
  "fineGrainedOutOfScope",
  // Last: a site administrator passes every check, so its successful writes must not disturb the others.
  "siteAdmin",
] as const;
export type Caller = (typeof CALLERS)[number];
export type Expected = Record<Caller, number | string>;

export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

export interface Row {
  /** The route as the hub's route inventory names it ("METHOD /pattern"): route-inventory.ts. */
  route: string;
  name: string;
  method: Method;
  /** A concrete path; a function gets the caller (each caller may act on its own target). */
  path: string | ((caller: Caller) => string);
  /** A JSON body; a function gets the caller's name (to keep created names unique). */
  body?: Record<string, unknown> | ((caller: Caller) => Record<string, unknown>);
  /** A body sent as is (not JSON), with its content type. */
  rawBody?: { contentType: string; text: (caller: Caller) => string };
  headers?: Record<string, string>;
  /** Turns the answer into the outcome the table names (by default, its status). */
  outcome?: (response: Response, body: unknown) => string;
  /** Whether a success writes to the database (refusals never may). */
  writes?: boolean;
  /**
   * The hub forwards the call to a provider and records it as usage whatever the provider answers: only the
   * hub's own refusals (401, 403) must then write nothing.
   */
  forwarded?: boolean;
  expected: Expected;
}

/** Every caller gets `status` (credentials play no part, beyond invalid ones being refused). */
export const everyone = (status: number | string): Expected =>
  Object.fromEntries(CALLERS.map((caller) => [caller, status])) as Expected;

/** Open to all; a revoked or expired token is still refused (invalid credentials are never ignored). */
export const PUBLIC: Expected = { ...everyone(200), revokedToken: 401, expiredToken: 401 };

/** Any signed-in caller with a valid credential, whatever it may do. */
export const SIGNED_IN: Expected = { ...PUBLIC, anonymous: 401 };

/** Acting as oneself (profile, password, tokens): a session or write token; read and scoped tokens may not. */
export const SELF_MANAGE: Expected = {
  ...SIGNED_IN,
  reader: 403,
  readTokenOnWrite: 403,
  fineGrainedOutOfScope: 403,
};

export const SITE_ADMIN_ONLY: Expected = {
  ...everyone(403),
  anonymous: 401,
  revokedToken: 401,
  expiredToken: 401,
  siteAdmin: 200,
};

export const ORG_ADMIN_ONLY: Expected = { ...SITE_ADMIN_ONLY, orgAdmin: 200 };

// The private repository belongs to acme: its members read it, writers write, admins manage; to anyone
// else it does not exist (404, or 401 without credentials, as for a missing one).
export const READ_PRIVATE_REPO: Expected = {
  anonymous: 401,
  reader: 200,
  writer: 200,
  orgAdmin: 200,
  otherUser: 404,
  revokedToken: 401,
  expiredToken: 401,
  readTokenOnWrite: 200,
  fineGrainedOutOfScope: 404,
  siteAdmin: 200,
};
export const WRITE_PRIVATE_REPO: Expected = { ...READ_PRIVATE_REPO, reader: 403, readTokenOnWrite: 403 };
export const MANAGE_PRIVATE_REPO: Expected = { ...WRITE_PRIVATE_REPO, writer: 403 };

/** Replaces the status of the callers who succeed (200) with `status` (201 for creations). */
export const succeedsWith = (expected: Expected, status: number): Expected =>
  Object.fromEntries(
    Object.entries(expected).map(([caller, value]) => [caller, value === 200 ? status : value]),
  ) as Expected;

/** A listing's outcome for one private id: "listed" or "hidden" when it answers 200, else its status. */
export const listsPrivateId =
  (id: string) =>
  (response: Response, body: unknown): string =>
    response.status !== 200
      ? String(response.status)
      : (body as Array<{ id: string }>).some((item) => item.id === id)
        ? "listed"
        : "hidden";

/** Who finds a private item in a listing: acme's members and the site admin; a scoped token sees public ones. */
export const SEES_PRIVATE: Expected = {
  anonymous: "hidden",
  reader: "listed",
  writer: "listed",
  orgAdmin: "listed",
  otherUser: "hidden",
  revokedToken: "401",
  expiredToken: "401",
  readTokenOnWrite: "listed",
  fineGrainedOutOfScope: "hidden",
  siteAdmin: "listed",
};
