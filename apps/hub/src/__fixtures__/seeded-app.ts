import { afterEach, beforeEach } from "vitest";
import { createApp } from "../app.js";
import type { Logger } from "../logger.js";
import { fileURLToPath } from "node:url";
import { seedOnFirstStart } from "../catalogue/catalogue.js";
import type { Store } from "../store/store.js";
import { seedAccounts } from "./accounts.js";
import { makeTempDir } from "./temp-dir.js";
import { openTestStore } from "./test-store.js";

/** A small catalogue of 20 real models, fixed so that tests do not move when the built-in one grows. */
export const FIXTURE_CATALOGUE_DIR = fileURLToPath(new URL("./catalogue/", import.meta.url));

export const ADMIN_TOKEN = "test-admin-token-0123456789";

/** The real app over a real database (SQLite in a temp dir by default), seeded with the fixture catalogue. */
export async function seededApp(
  options: { logger?: Logger; adminToken?: string | null; publicUrl?: string } = {},
) {
  const temp = makeTempDir();
  const store: Store = await openTestStore({ dataDir: temp.dir });
  await seedOnFirstStart(store, FIXTURE_CATALOGUE_DIR, undefined);
  const app = createApp({
    store,
    logger: options.logger,
    publicUrl: options.publicUrl ?? "http://hub.test",
    adminToken: options.adminToken === null ? undefined : (options.adminToken ?? ADMIN_TOKEN),
  });
  return {
    app,
    store,
    dataDir: temp.dir,
    cleanup: async () => {
      await store.close();
      temp.remove();
    },
  };
}

export type SeededApp = Awaited<ReturnType<typeof seededApp>>;
type AccountTokens = Awaited<ReturnType<typeof seedAccounts>>["tokens"];

/**
 * A fresh seeded app with seedAccounts' cast for each test of the file (beforeEach / afterEach). `hub` reads
 * the current test's app; `tokens` is refilled with its tokens.
 */
export function seededAccountsPerTest(): { hub: SeededApp; tokens: AccountTokens } {
  let current: SeededApp | undefined;
  const tokens = {} as AccountTokens;
  beforeEach(async () => {
    current = await seededApp();
    Object.assign(tokens, (await seedAccounts(current.store)).tokens);
  });
  afterEach(() => current?.cleanup());
  const app = () => {
    if (!current) throw new Error("The seeded app exists inside a test (beforeEach).");
    return current;
  };
  const hub: SeededApp = {
    get app() {
      return app().app;
    },
    get store() {
      return app().store;
    },
    get dataDir() {
      return app().dataDir;
    },
    cleanup: () => app().cleanup(),
  };
  return { hub, tokens };
}

/**
 * A request to `app` as the holder of `token` (none: anonymous), with `body` as JSON when given: the status
 * and the parsed JSON answer (typed loosely: tests check it field by field).
 */
export async function requestJson(
  app: SeededApp["app"],
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
) {
  const response = await app.request(path, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
  return { status: response.status, body: (await response.json()) as any };
}

export const adminHeaders = (token = ADMIN_TOKEN) => ({
  Authorization: `Bearer ${token}`,
  "Content-Type": "application/json",
});
