import { Hono } from "hono";
import type { BlobStore } from "../storage/blob-store.js";
import type { Store } from "../store/store.js";
import type { HubEnv } from "./hub-env.js";

export interface HealthDeps {
  store: Store;
  blobs?: BlobStore;
  /** True once the hub has begun shutting down: it finishes what it serves but takes no new work. */
  draining?: () => boolean;
}

/** A key no blob has: asking for it reads the blob store without finding anything. */
const PROBE_KEY = "0".repeat(64);

/**
 * `GET /healthz`: the process is alive and answers (no dependency is consulted, so a slow database never
 * gets a live process restarted). `GET /readyz`: it can serve — the database answers with every migration
 * applied, the blob store answers, and it is not shutting down; 503 with the failing checks otherwise.
 */
export function healthRoutes({ store, blobs, draining }: HealthDeps) {
  const app = new Hono<HubEnv>();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const checks: Record<string, string> = {};
    let ready = true;
    const fail = (name: string, reason: string) => {
      checks[name] = reason;
      ready = false;
    };
    try {
      const { applied, known } = await store.schema();
      if (applied === known) checks.database = `ok (schema ${applied})`;
      else fail("database", `schema ${applied} of ${known}: migrations not applied`);
    } catch (error) {
      fail("database", `unreachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (blobs) {
      try {
        await blobs.head(PROBE_KEY);
        checks.blobs = "ok";
      } catch (error) {
        fail("blobs", `unreachable: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (draining?.()) fail("shutdown", "draining: finishing requests in flight");
    return c.json({ status: ready ? "ready" : "unavailable", checks }, ready ? 200 : 503);
  });
  return app;
}
