import { Hono } from "hono";
import type { HubEnv } from "./hub-env.js";
import type { ReadinessService } from "./readiness.js";

/**
 * `GET /healthz`: the process is alive and answers (no dependency is consulted, so a slow database never
 * gets a live process restarted). `GET /readyz`: it can serve (readiness.ts); 503 with the failing checks
 * otherwise.
 */
export function healthRoutes({ readiness }: { readiness: ReadinessService }) {
  const app = new Hono<HubEnv>();
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    const { ready, checks } = await readiness.check();
    return c.json({ status: ready ? "ready" : "unavailable", checks }, ready ? 200 : 503);
  });
  return app;
}
