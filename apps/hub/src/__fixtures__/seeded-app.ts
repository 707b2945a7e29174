import { createApp } from "../app.js";
import type { Logger } from "../logger.js";
import { fileURLToPath } from "node:url";
import { seedOnFirstStart } from "../store/catalogue.js";
import type { Store } from "../store/store.js";
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

export const adminHeaders = (token = ADMIN_TOKEN) => ({
  Authorization: `Bearer ${token}`,
  "Content-Type": "application/json",
});
