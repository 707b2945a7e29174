import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { createApp } from "../app.js";
import { issueToken } from "../auth/token-service.js";
import { type RunningHub, startHub } from "../start-hub.js";
import { createUpstreams } from "./upstreams.js";

/**
 * The node:http fast path answers router calls without Hono: its refusals must be the Hono route's, header for
 * header and field for field (only the request id differs). Dot segments are not compared: app.request()
 * normalises them away before Hono sees them (router.e2e.test.ts checks them on the real server).
 */
let temp: ReturnType<typeof makeTempDir>;
let sim: ProviderSim;
let hub: RunningHub;
let hono: ReturnType<typeof createApp>;
let token: string;

beforeAll(async () => {
  temp = makeTempDir();
  sim = await startProviderSim();
  const providerBaseUrls = Object.fromEntries(INFERENCE_PROVIDERS.map((p) => [p, sim.providerUrl(p)]));
  hub = await startHub({
    dataDir: join(temp.dir, "data"),
    adminToken: ADMIN_TOKEN,
    catalogueDir: FIXTURE_CATALOGUE_DIR,
    providerBaseUrls,
  });
  hono = createApp({
    store: hub.store,
    upstreams: createUpstreams({ providerBaseUrls, simCredential: "x".repeat(8) }),
  });
  token = issueToken(hub.store, { name: "parity", scopes: ["inference"] }).token;
});
afterAll(async () => {
  await hub?.close();
  await sim?.close();
  temp?.remove();
});

/** Raw HTTP, so that the target reaches the hub exactly as written. */
function rawPost(path: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(hub.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const request = httpRequest({ hostname, port, path, method: "POST", headers }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      });
      request.on("error", reject);
      request.end("{}");
    },
  );
}

const TRANSPORT = new Set(["content-length", "date", "connection", "keep-alive", "x-request-id"]);
const comparable = (headers: Iterable<[string, unknown]>) =>
  Object.fromEntries(
    [...headers].filter(([name]) => !TRANSPORT.has(name)).sort(([a], [b]) => a.localeCompare(b)),
  );
const withoutRequestId = (body: string) => {
  const { requestId, ...rest } = JSON.parse(body) as Record<string, unknown>;
  expect(requestId).toEqual(expect.any(String));
  return rest;
};

describe("the node:http router path", () => {
  const cases: Array<[string, string, () => Record<string, string>]> = [
    ["unknown provider", "/router/acme-ai/v1/chat/completions", () => ({ Authorization: `Bearer ${token}` })],
    ["no token", "/router/together/v1/chat/completions", () => ({})],
    ["not a hub token", "/router/together/v1/chat/completions", () => ({ Authorization: "Bearer sk-1" })],
    ["unknown hub token", "/router/together/v1/x", () => ({ Authorization: `Bearer hf_${"x".repeat(34)}` })],
    ["no provider path", "/router/together/", () => ({ Authorization: `Bearer ${token}` })],
    ["encoded slash", "/router/together/v1%2Fx", () => ({ Authorization: `Bearer ${token}` })],
  ];
  it.each(cases)("refuses like the Hono route: %s", async (_name, path, headersOf) => {
    const headers = { "Content-Type": "application/json", ...headersOf() };
    const fast = await rawPost(path, headers);
    const reference = await hono.request(path, { method: "POST", headers, body: "{}" });
    expect(fast.status).toBe(reference.status);
    expect(comparable(Object.entries(fast.headers))).toEqual(comparable(reference.headers.entries()));
    expect(withoutRequestId(fast.body)).toEqual(withoutRequestId(await reference.text()));
  });

  it("passes a provider's error through with the hub's headers over the provider's", async () => {
    const response = await rawPost("/router/together/v1/chat/completions", {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json",
      "x-sim-fault": "rate-limit:7",
    });
    expect(response.status).toBe(429);
    expect(response.headers["retry-after"]).toBe("7");
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(response.body).not.toMatch(/hf_sim/);
  });

  it("keeps a well-formed caller request id and replaces a malformed one", async () => {
    const kept = await rawPost("/router/acme-ai/v1/x", { "X-Request-Id": "caller-id-1" });
    expect(kept.headers["x-request-id"]).toBe("caller-id-1");
    const replaced = await rawPost("/router/acme-ai/v1/x", { "X-Request-Id": "bad id!" });
    expect(replaced.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("leaves preflights and other methods to the Hono app", async () => {
    const preflight = await fetch(`${hub.url}/router/together/v1/chat/completions`, {
      method: "OPTIONS",
      headers: { Origin: "http://example.test", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const put = await fetch(`${hub.url}/router/together/v1/chat/completions`, { method: "PUT" });
    expect(put.status).toBe(404);
  });
});
