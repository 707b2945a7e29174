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
});
