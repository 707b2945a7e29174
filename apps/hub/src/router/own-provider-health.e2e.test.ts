/**
 * Health checks against servers that answer badly, on a real hub: the check is decided by the answer's
 * status, within the check's time, whatever the body does. A server whose health answer's body never ends
 * (a byte now and then, each within the idle limit) held the check of every provider with it: the periodic
 * check joins the one under way, so no server was checked again, and one marked down never came back.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestHub } from "../__fixtures__/test-hub.js";

const ADMIN_TOKEN = "admin-token-own-provider-health";
const hub = useTestHub({ adminToken: ADMIN_TOKEN, ownProvidersHealthIntervalMs: 3_600_000 });
let trickling: Server;
let trickleUrl: string;
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  trickling = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => response.write("."), 200);
    timers.add(timer);
    response.on("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => trickling.listen(0, "127.0.0.1", resolve));
  trickleUrl = `http://127.0.0.1:${(trickling.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  trickling.closeAllConnections();
  await new Promise((resolve) => trickling.close(resolve));
});

async function admin(method: string, path: string, body?: unknown) {
  const response = await fetch(`${hub.url}/api/admin/own-providers${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect([path, response.ok]).toEqual([path, true]);
  return response.json() as Promise<{ name: string; health: { status: string } }[]>;
}

describe("a health check against a server whose answer never ends", () => {
  it("is decided by the status at once, and the checks go on", { timeout: 20_000 }, async () => {
    await admin("PUT", "/trickle", { baseUrl: trickleUrl, headersTimeoutMs: 1_000 });
    for (let round = 0; round < 2; round++) {
      const started = performance.now();
      const checked = await admin("POST", "/check");
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(checked.map((provider) => [provider.name, provider.health.status])).toEqual([["trickle", "up"]]);
    }
  });
});
