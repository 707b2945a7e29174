import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createPlainHistogram } from "./plain-histogram.js";

describe("createPlainHistogram", () => {
  it("writes what prom-client's Histogram writes for the same observations", async () => {
    const buckets = [0.005, 0.1, 1, 10];
    const options = { name: "h_seconds", help: "A histogram." };
    const ours = new Registry();
    const plain = createPlainHistogram(ours, { ...options, labelName: "provider", buckets });
    const theirs = new Registry();
    const reference = new Histogram({ ...options, labelNames: ["provider"], buckets, registers: [theirs] });
    expect(await ours.metrics()).toBe(await theirs.metrics());
    for (const [provider, seconds] of [
      ["together", 0.004],
      ["together", 0.1],
      ["together", 3],
      ["together", 99],
      ["own-vllm", 0.5],
    ] as const) {
      plain.observe(provider, seconds);
      reference.labels(provider).observe(seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('h_seconds_bucket{le="0.1",provider="together"} 2');
    expect(text).toContain('h_seconds_bucket{le="+Inf",provider="together"} 4');
    expect(text).toContain('h_seconds_count{provider="own-vllm"} 1');
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
