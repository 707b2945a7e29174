import { createApp } from "../app.js";
import type { Logger } from "../logger.js";
import { fileURLToPath } from "node:url";
import { seedOnFirstStart } from "../store/catalogue.js";
import { openStore, type Store } from "../store/store.js";
import { makeTempDir } from "./temp-dir.js";

/** A small catalogue of 20 real models, fixed so that tests do not move when the built-in one grows. */
export const FIXTURE_CATALOGUE_DIR = fileURLToPath(new URL("./catalogue/", import.meta.url));

export const ADMIN_TOKEN = "test-admin-token-0123456789";

/** The real app over a real SQLite file in a temp dir, seeded with the built-in catalogue. */
export function seededApp(
  options: { logger?: Logger; adminToken?: string | null; publicUrl?: string } = {},
) {
  const temp = makeTempDir();
  const store: Store = openStore({ dataDir: temp.dir });
  seedOnFirstStart(store, FIXTURE_CATALOGUE_DIR, undefined);
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
    cleanup: () => {
      store.close();
      temp.remove();
    },
  };
}

export const adminHeaders = (token = ADMIN_TOKEN) => ({
  Authorization: `Bearer ${token}`,
  "Content-Type": "application/json",
});
