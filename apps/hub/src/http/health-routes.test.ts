import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SeededApp, seededApp } from "../__fixtures__/seeded-app.js";
import { createApp } from "../app.js";
import type { BlobStore } from "../storage/blob-store.js";

let hub: SeededApp;
beforeEach(async () => {
  hub = await seededApp();
});
afterEach(() => hub.cleanup());

describe("health", () => {
  it("/healthz answers while the process lives; /readyz reports each check", async () => {
    const live = await hub.app.request("/healthz");
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await hub.app.request("/readyz");
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; checks: Record<string, string> };
    expect(body.status).toBe("ready");
    expect(body.checks.database).toMatch(/^ok \(schema \d+\)$/);
  });

  it("/readyz is 503 when migrations are missing, the blob store fails, or the hub is shutting down", async () => {
    const behind = { ...hub.store, schema: async () => ({ applied: 1, known: 3 }) };
    const failing: Pick<BlobStore, "head"> = { head: () => Promise.reject(new Error("EACCES")) };
    for (const [name, app] of [
      ["migrations", createApp({ store: behind })],
      ["blobs", createApp({ store: hub.store, blobs: failing as BlobStore })],
      ["shutdown", createApp({ store: hub.store, draining: () => true })],
    ] as const) {
      const response = await app.request("/readyz");
      expect(response.status, name).toBe(503);
      const body = (await response.json()) as { status: string; checks: Record<string, string> };
      expect(body.status, name).toBe("unavailable");
      expect(Object.keys(body.checks), name).toContain(name === "migrations" ? "database" : name);
    }
    // Liveness never depends on them.
    expect((await createApp({ store: behind, draining: () => true }).request("/healthz")).status).toBe(200);
  });
});
