import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseFaultHeader } from "./faults.js";
import { type ProviderSim, startProviderSim } from "./server.js";
import { jsonHeaders, postJson } from "./test-support/sse.js";

let sim: ProviderSim;
beforeAll(async () => {
  sim = await startProviderSim();
});
afterEach(() => sim.setFault(null));
afterAll(() => sim.close());

const chat = { model: "m", messages: [{ role: "user", content: "Hello" }] };
const chatUrl = () => `${sim.url}/together/v1/chat/completions`;

/** Reads a stream's text until it ends or fails; returns what arrived and whether it failed. */
async function drain(response: Response): Promise<{ text: string; failed: boolean }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, failed: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, failed: true };
  }
}

describe("HTTP faults", () => {
  it("503 burst: n failures in the provider's error shape, then success", async () => {
    sim.setFault({ kind: "status", status: 503, times: 2 });
    const first = await postJson(chatUrl(), chat);
    expect(first.status).toBe(503);
    expect((await first.json()).error.type).toBe("server_error");
    expect((await postJson(chatUrl(), chat)).status).toBe(503);
    expect((await postJson(chatUrl(), chat)).status).toBe(200);
  });

  it("hf-inference 503 says the model is loading", async () => {
    sim.setFault({ kind: "status", status: 503, provider: "hf-inference" });
    const response = await postJson(`${sim.url}/hf-inference/models/gpt2`, { inputs: "Hi" });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: "Model is currently loading", estimated_time: 20 });
  });

  it("429 with Retry-After", async () => {
    sim.setFault({ kind: "rate-limit", retryAfterSeconds: 3 });
    const response = await postJson(chatUrl(), chat);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
  });

  it("slow responses", async () => {
    sim.setFault({ kind: "delay", ms: 150 });
    const started = performance.now();
    expect((await postJson(chatUrl(), chat)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("an endless delay slows every request once, and combines with a failure", async () => {
    sim.setFault({ kind: "delay", ms: 50, times: Number.POSITIVE_INFINITY });
    sim.queueFault({ kind: "status", status: 500 });
    const started = performance.now();
    expect((await postJson(chatUrl(), chat)).status).toBe(500);
    expect((await postJson(chatUrl(), chat)).status).toBe(200);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(2000);
  });

  it("dropped connections", async () => {
    sim.setFault({ kind: "drop-connection" });
    await expect(postJson(chatUrl(), chat)).rejects.toThrow();
    expect((await postJson(chatUrl(), chat)).status).toBe(200);
  });

  it("applies only to the targeted provider and path, and to the hub API", async () => {
    sim.setFault({ kind: "status", status: 500, provider: "hub" });
    expect((await postJson(chatUrl(), chat)).status).toBe(200);
    const hub = await fetch(`${sim.url}/api/models/gpt2?expand[]=inferenceProviderMapping`);
    expect(hub.status).toBe(500);
    expect(await hub.json()).toEqual({ error: "Simulated 500 from hub." });
    sim.setFault({
      kind: "status",
      status: 502,
      pathIncludes: "/completions",
      times: Number.POSITIVE_INFINITY,
    });
    expect((await postJson(`${sim.url}/together/v1/completions`, { model: "m", prompt: "p" })).status).toBe(
      502,
    );
    expect((await postJson(chatUrl(), chat)).status).toBe(502);
    expect(sim.pendingFaults()).toHaveLength(1);
  });

  it("takes faults from the x-sim-fault header for that request only", async () => {
    const faulted = await postJson(
      chatUrl(),
      chat,
      jsonHeaders(undefined, { "x-sim-fault": "rate-limit:7" }),
    );
    expect(faulted.headers.get("retry-after")).toBe("7");
    expect((await postJson(chatUrl(), chat)).status).toBe(200);
    const bad = await postJson(chatUrl(), chat, jsonHeaders(undefined, { "x-sim-fault": "explode" }));
    expect(bad.status).toBe(400);
  });

  it("takes faults from POST /__sim/faults (the CLI's way)", async () => {
    const posted = await fetch(`${sim.url}/__sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ kind: "status", status: 503, times: -1, provider: "openai" }]),
    });
    expect(posted.status).toBe(201);
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await postJson(`${sim.url}/openai/v1/chat/completions`, chat)).status).toBe(503);
    }
    const refused = await fetch(`${sim.url}/__sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "nope" }),
    });
    expect(refused.status).toBe(400);
    await fetch(`${sim.url}/__sim/faults`, { method: "DELETE" });
    expect((await postJson(`${sim.url}/openai/v1/chat/completions`, chat)).status).toBe(200);
  });
});

describe("stream faults", () => {
  const stream = () => postJson(chatUrl(), { ...chat, stream: true });

  it("drops the connection mid-stream", async () => {
    sim.setFault({ kind: "drop-stream", afterChunks: 3 });
    const response = await stream();
    expect(response.status).toBe(200);
    const { text, failed } = await drain(response);
    expect(failed).toBe(true);
    expect(text.split("\n\n").filter((block) => block.startsWith("data:"))).toHaveLength(3);
  });

  it("sends a malformed event, then carries on to [DONE]", async () => {
    sim.setFault({ kind: "malformed-sse", afterChunks: 2 });
    const { text } = await drain(await stream());
    const payloads = text
      .split("\n\n")
      .filter(Boolean)
      .map((block) => block.replace(/^data: /, ""));
    const broken = payloads.filter((payload) => payload !== "[DONE]" && !isJson(payload));
    expect(broken).toHaveLength(1);
    expect(payloads.indexOf(broken[0]!)).toBe(2);
    expect(payloads.at(-1)).toBe("[DONE]");
  });

  it("sends the provider's in-stream error event and ends without [DONE]", async () => {
    sim.setFault({ kind: "stream-error", afterChunks: 1, message: "Model overloaded" });
    const { text, failed } = await drain(await stream());
    expect(failed).toBe(false);
    const payloads = text
      .split("\n\n")
      .filter(Boolean)
      .map((block) => block.replace(/^data: /, ""));
    expect(JSON.parse(payloads.at(-1)!)).toEqual({
      error: { message: "Model overloaded", type: "server_error", param: null, code: null },
    });
    expect(text).not.toContain("[DONE]");
  });

  it("uses the TGI error event shape on hf-inference", async () => {
    sim.setFault({ kind: "stream-error", afterChunks: 1 });
    const response = await postJson(`${sim.url}/hf-inference/models/gpt2`, { inputs: "Hi", stream: true });
    const { text } = await drain(response);
    const last = text.split("\n\n").filter(Boolean).at(-1)!;
    expect(JSON.parse(last.replace(/^data:/, ""))).toMatchObject({
      error: expect.any(String),
      error_type: "generation",
    });
  });

  it("leaves non-streaming calls alone while a stream fault waits", async () => {
    sim.setFault({ kind: "drop-stream" });
    expect((await postJson(chatUrl(), chat)).status).toBe(200);
    expect(sim.pendingFaults()).toHaveLength(1);
  });
});

describe("stream cancellation", () => {
  it("stops writing when the client goes away", async () => {
    const controller = new AbortController();
    const response = await postJson(
      chatUrl(),
      { ...chat, stream: true },
      jsonHeaders(undefined, { "x-sim-stream-chunks": "5000000" }),
    );
    const reader = response.body!.getReader();
    await reader.read();
    expect(sim.activeStreams).toBe(1);
    await reader.cancel();
    controller.abort();
    const deadline = Date.now() + 2000;
    while (sim.activeStreams > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sim.activeStreams).toBe(0);
  });
});

describe("stream pacing", () => {
  it("spaces events by x-sim-stream-interval-ms, each arriving on its own", async () => {
    const response = await postJson(
      chatUrl(),
      { ...chat, stream: true },
      jsonHeaders(undefined, { "x-sim-stream-chunks": "3", "x-sim-stream-interval-ms": "60" }),
    );
    const reader = response.body!.getReader();
    const arrivals: number[] = [];
    const started = performance.now();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
      arrivals.push(performance.now() - started);
    }
    // role + 3 content + finish chunks: four pauses of 60 ms.
    expect(arrivals.at(-1)!).toBeGreaterThanOrEqual(220);
    expect(arrivals.length).toBeGreaterThanOrEqual(3);
  });
});

describe("parseFaultHeader", () => {
  it("reads the short forms and JSON", () => {
    expect(parseFaultHeader("503")).toEqual({ kind: "status", status: 503 });
    expect(parseFaultHeader("delay:250")).toEqual({ kind: "delay", ms: 250 });
    expect(parseFaultHeader("drop-stream:4")).toEqual({ kind: "drop-stream", afterChunks: 4 });
    expect(parseFaultHeader("job-fails")).toEqual({ kind: "job-fails" });
    expect(parseFaultHeader('{"kind":"stream-error","message":"x"}')).toEqual({
      kind: "stream-error",
      message: "x",
    });
    expect(() => parseFaultHeader("boom")).toThrow(/Unknown fault kind/);
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
