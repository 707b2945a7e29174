import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { adminHeaders, type SeededApp, seededApp } from "../__fixtures__/seeded-app.js";
import { createMetrics } from "./metrics.js";

let hub: SeededApp;
beforeEach(async () => {
  hub = await seededApp();
});
afterEach(() => hub.cleanup());

describe("/metrics", () => {
  it("counts requests per route pattern (not per id) and status, in Prometheus text format", async () => {
    await hub.app.request("/api/models?limit=2");
    await hub.app.request("/api/models/meta-llama/Llama-3.1-8B-Instruct");
    await hub.app.request("/api/models/openai/whisper-large-v3");
    await hub.app.request("/api/models/nobody/nothing");
    const yaml = JSON.stringify({ repoType: "model", content: "---\nlicense: mit\n---\n" });
    await hub.app.request("/api/validate-yaml", {
      method: "POST",
      body: yaml,
      headers: { "Content-Type": "application/json", "Content-Length": String(yaml.length) },
    });
    const response = await hub.app.request("/metrics", { headers: adminHeaders() });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/hub_http_requests_total\{method="GET",route="\/api\/models\/?",status="200"\} 1/);
    expect(text).toContain(
      'hub_http_requests_total{method="GET",route="/api/models/:owner/:name",status="200"} 2',
    );
    // An unknown model: 404, or 401 for an anonymous caller who might lack access to a private one.
    expect(text).toMatch(
      /hub_http_requests_total\{method="GET",route="\/api\/models\/:owner\/:name",status="40[14]"\} 1/,
    );
    expect(text).toMatch(
      /hub_http_request_duration_seconds_count\{method="GET",route="\/api\/models\/:owner\/:name"\} 3/,
    );
    expect(text).toContain(`hub_transfer_bytes_total{direction="upload",kind="api"} ${yaml.length}`);
    expect(text).not.toContain("Llama-3.1-8B-Instruct");
  });

  it("counts router calls per provider and status, with their bytes", async () => {
    const metrics = createMetrics();
    metrics.observeRouterCall({
      provider: "together",
      status: 200,
      durationMs: 120,
      requestBytes: 80,
      responseBytes: 900,
    });
    metrics.observeRouterCall({
      provider: "together",
      status: 499,
      durationMs: 30,
      requestBytes: 80,
      responseBytes: 10,
    });
    const text = await metrics.registry.metrics();
    expect(text).toContain('hub_router_calls_total{provider="together",status="200"} 1');
    expect(text).toContain('hub_router_calls_total{provider="together",status="499"} 1');
    expect(text).toContain('hub_router_call_duration_seconds_count{provider="together"} 2');
    expect(text).toContain('hub_transfer_bytes_total{direction="upload",kind="router"} 160');
    expect(text).toContain('hub_transfer_bytes_total{direction="download",kind="router"} 910');

    // Counted between scrapes and handed over at each: a later scrape adds the calls since, once.
    metrics.observeRouterCall({
      provider: "together",
      status: 200,
      durationMs: 10,
      requestBytes: 5,
      responseBytes: 7,
    });
    const later = await metrics.registry.metrics();
    expect(later).toContain('hub_router_calls_total{provider="together",status="200"} 2');
    expect(later).toContain('hub_router_calls_total{provider="together",status="499"} 1');
    expect(later).toContain('hub_transfer_bytes_total{direction="upload",kind="router"} 165');
    expect(later).toContain('hub_transfer_bytes_total{direction="download",kind="router"} 917');
    expect(await metrics.registry.metrics()).toContain(
      'hub_router_calls_total{provider="together",status="200"} 2',
    );
  });

  it("writes each route's latency as a cumulative histogram and counts body bytes by kind", async () => {
    const metrics = createMetrics();
    const app = new Hono();
    app.use("*", metrics.middleware);
    app.get("/api/things/:id", (c) => c.body("twelve bytes", 200, { "Content-Length": "12" }));
    app.post("/api/things", (c) => c.body(null, 201));
    for (let i = 0; i < 3; i++) await app.request("/api/things/a");
    await app.request("/api/things/b", { method: "HEAD" });
    await app.request("/api/things", { method: "POST", body: "12345", headers: { "Content-Length": "5" } });
    const text = await metrics.registry.metrics();
    const route = 'method="GET",route="/api/things/:id"';
    expect(text).toContain("# TYPE hub_http_request_duration_seconds histogram");
    // Cumulative: each bucket holds those below it, and +Inf every one.
    const buckets = [...text.matchAll(/hub_http_request_duration_seconds_bucket\{le="([^"]+)",(.*)\} (\d+)/g)]
      .filter((match) => match[2] === route)
      .map((match) => [match[1], Number(match[3])] as const);
    expect(buckets.map(([le]) => le)).toEqual([
      ...["0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "120"],
      "+Inf",
    ]);
    for (let i = 1; i < buckets.length; i++)
      expect(buckets[i]![1]).toBeGreaterThanOrEqual(buckets[i - 1]![1]);
    expect(buckets.at(-1)![1]).toBe(3);
    expect(text).toContain(`hub_http_request_duration_seconds_count{${route}} 3`);
    expect(text).toMatch(
      /hub_http_request_duration_seconds_sum\{method="GET",route="\/api\/things\/:id"\} 0\.\d+/,
    );
    expect(text).toContain(`hub_http_requests_total{${route},status="200"} 3`);
    expect(text).toContain('hub_http_requests_total{method="HEAD",route="/api/things/:id",status="200"} 1');
    expect(text).toContain('hub_http_requests_total{method="POST",route="/api/things",status="201"} 1');
    // Three GETs of 12 bytes (a HEAD sends none), one upload of 5.
    expect(text).toContain('hub_transfer_bytes_total{direction="download",kind="api"} 36');
    expect(text).toContain('hub_transfer_bytes_total{direction="upload",kind="api"} 5');

    // Handed over once: a later scrape shows the same totals, then the requests since added on.
    await app.request("/api/things/c");
    const later = await metrics.registry.metrics();
    expect(later).toContain(`hub_http_requests_total{${route},status="200"} 4`);
    expect(later).toContain(`hub_http_request_duration_seconds_bucket{le="+Inf",${route}} 4`);
    expect(later).toContain('hub_transfer_bytes_total{direction="download",kind="api"} 48');
  });
});
