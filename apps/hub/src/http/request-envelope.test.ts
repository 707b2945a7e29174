import type { ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../errors.js";
import { createMemoryLogger } from "../logger.js";
import { HubServerResponse } from "./head-with-body.js";
import type { HubEnv } from "./hub-env.js";
import { createMetrics } from "./metrics.js";
import { publicUrl } from "./public-url.js";
import { requestEnvelope } from "./request-envelope.js";
import { SECURITY_HEADERS } from "./security-headers.js";

function envelopedApp() {
  const logger = createMemoryLogger();
  const metrics = createMetrics();
  const app = new Hono<HubEnv>();
  app.onError((error, c) => c.json({ error: error.message }, error instanceof InvalidInputError ? 400 : 500));
  app.use("*", requestEnvelope({ logger, metrics, publicUrl: "https://hub.example/" }));
  app.get("/", (c) => c.text(c.get("requestId")));
  app.get("/url", (c) => c.text(publicUrl(c)));
  // A handler's own Response (as file downloads answer): Hono keeps none of the headers set before it.
  app.get(
    "/own",
    () => new Response("own", { headers: { "X-Frame-Options": "ALLOWALL", "X-Powered-By": "x" } }),
  );
  // A Response whose headers cannot change (as fetch answers).
  app.get("/immutable", () => Response.redirect("https://elsewhere.example/", 302));
  app.get("/fails", () => {
    throw new InvalidInputError("no");
  });
  // A route that writes the request's log line itself (as the router's call line does).
  app.get("/logs-itself", (c) => {
    c.set("requestLoggedByRoute", true);
    return c.text("logged by the route");
  });
  return { app, logger, metrics };
}

async function idsFor(headers: Record<string, string>) {
  const { app } = envelopedApp();
  const response = await app.request("/", { headers });
  return { echoed: response.headers.get("X-Request-Id"), logged: await response.text() };
}

describe("the request id", () => {
  it("keeps the caller's X-Request-Id", async () => {
    expect(await idsFor({ "X-Request-Id": "caller-1", "X-Amzn-Trace-Id": "trace-1" })).toEqual({
      echoed: "caller-1",
      logged: "caller-1",
    });
  });

  it("echoes huggingface_hub's X-Amzn-Trace-Id as X-Request-Id", async () => {
    const trace = "Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8";
    expect(await idsFor({ "X-Amzn-Trace-Id": trace })).toEqual({ echoed: trace, logged: trace });
  });

  it("makes a new id when the caller's are unsafe to echo or log", async () => {
    for (const headers of <Record<string, string>[]>[
      { "X-Amzn-Trace-Id": "bad id <script>" },
      { "X-Amzn-Trace-Id": "a".repeat(256) },
      { "X-Request-Id": "a;b" },
      { "X-Request-Id": "" },
      {},
    ]) {
      const { echoed, logged } = await idsFor(headers);
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
      expect(logged).toBe(echoed);
    }
  });
});

describe("the request envelope", () => {
  it("puts the request id and the security headers on every answer: the handler's own, an error, a fixed one", async () => {
    const { app } = envelopedApp();
    for (const path of ["/", "/own", "/fails", "/immutable", "/nothing-here"]) {
      const response = await app.request(path, { headers: { "X-Request-Id": "req-7" } });
      expect(response.headers.get("X-Request-Id"), path).toBe("req-7");
      for (const [name, value] of SECURITY_HEADERS)
        expect(response.headers.get(name), `${path} ${name}`).toBe(value);
      expect(response.headers.get("X-Powered-By"), path).toBeNull();
    }
    const own = await app.request("/own");
    expect(await own.text()).toBe("own");
    const moved = await app.request("/immutable");
    expect(moved.status).toBe(302);
    expect(moved.headers.get("Location")).toBe("https://elsewhere.example/");
  });

  it("gives handlers the configured public URL, never the request's host", async () => {
    const { app } = envelopedApp();
    const response = await app.request("http://attacker.example/url", {
      headers: { Host: "attacker.example" },
    });
    expect(await response.text()).toBe("https://hub.example");
  });

  it("logs one line and counts one request per answer, errors included", async () => {
    const { app, logger, metrics } = envelopedApp();
    await app.request("/", { headers: { "X-Request-Id": "req-1" } });
    await app.request("/fails?token=hf_secret", { headers: { "X-Request-Id": "req-2" } });
    const lines = logger.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { level: "info", msg: "request", requestId: "req-1", method: "GET", path: "/", status: 200 },
      { level: "info", msg: "request", requestId: "req-2", method: "GET", path: "/fails", status: 400 },
    ]);
    expect(logger.lines.join("\n")).not.toContain("hf_secret");
    const text = await metrics.registry.metrics();
    expect(text).toContain('hub_http_requests_total{method="GET",route="/",status="200"} 1');
    expect(text).toContain('hub_http_requests_total{method="GET",route="/fails",status="400"} 1');
  });

  it("writes no line for a request its route logs itself, and still counts it and gives it its headers", async () => {
    const { app, logger, metrics } = envelopedApp();
    const response = await app.request("/logs-itself", { headers: { "X-Request-Id": "req-3" } });
    expect(response.headers.get("X-Request-Id")).toBe("req-3");
    for (const [name, value] of SECURITY_HEADERS) expect(response.headers.get(name), name).toBe(value);
    expect(logger.lines).toEqual([]);
    expect(await metrics.registry.metrics()).toContain(
      'hub_http_requests_total{method="GET",route="/logs-itself",status="200"} 1',
    );
  });
});

describe("the request envelope behind the Node server", () => {
  it("reads the caller's ids and the body's length from node:http as in-process", async () => {
    const { app, metrics } = envelopedApp();
    app.post("/echo", async (c) => c.text(String((await c.req.arrayBuffer()).byteLength)));
    const server = createAdaptorServer({ fetch: app.fetch });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const idOf = async (headers: Record<string, string>) =>
        (await fetch(`${base}/`, { headers })).headers.get("X-Request-Id");
      expect(await idOf({ "X-Request-Id": "caller-1", "X-Amzn-Trace-Id": "trace-1" })).toBe("caller-1");
      expect(await idOf({ "X-Amzn-Trace-Id": "Root=1-6789;Parent=53" })).toBe("Root=1-6789;Parent=53");
      expect(await idOf({ "X-Request-Id": "a;b" })).toMatch(/^[0-9a-f-]{36}$/);
      const posted = await fetch(`${base}/echo`, { method: "POST", body: "x".repeat(1234) });
      expect(await posted.text()).toBe("1234");
      expect(await metrics.registry.metrics()).toContain(
        'hub_transfer_bytes_total{direction="upload",kind="api"} 1234',
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("gives every answer of the hub's Node server the security headers once, a handler's replaced", async () => {
    const { app } = envelopedApp();
    const server = createAdaptorServer({
      fetch: app.fetch,
      // As start-hub.ts serves the hub (node:http's option type takes only its own class's constructor).
      serverOptions: { ServerResponse: HubServerResponse as unknown as typeof ServerResponse },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const path of ["/", "/own", "/fails", "/immutable", "/nothing-here"]) {
        const response = await fetch(`${base}${path}`, { redirect: "manual" });
        await response.arrayBuffer();
        // fetch joins repeated fields with ", ": one value each means one field each.
        for (const [name, value] of SECURITY_HEADERS)
          expect(response.headers.get(name), `${path} ${name}`).toBe(value);
        expect(response.headers.get("X-Powered-By"), path).toBeNull();
        expect(response.headers.get("X-Request-Id"), path).toMatch(/^[0-9a-f-]{36}$/);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
