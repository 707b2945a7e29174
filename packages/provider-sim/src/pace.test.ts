import { describe, expect, it } from "vitest";
import { drawPace, InvalidPaceError, parsePace, seededRandom } from "./pace.js";
import { startProviderSim } from "./server.js";

describe("parsePace", () => {
  it("reads ranges and single numbers", () => {
    expect(parsePace("150-400:30-80")).toEqual({ firstTokenMs: [150, 400], tokensPerSecond: [30, 80] });
    expect(parsePace("200:50")).toEqual({ firstTokenMs: [200, 200], tokensPerSecond: [50, 50] });
  });

  it("refuses what it cannot read, saying which part", () => {
    expect(() => parsePace("150-400")).toThrow(/tokens-per-second part ""/);
    expect(() => parsePace("400-150:30")).toThrow(InvalidPaceError);
    expect(() => parsePace("150:0")).toThrow(/0 < min/);
    expect(() => parsePace("a:30")).toThrow(/first-token part "a"/);
    expect(() => parsePace("1:2:3")).toThrow(/one ":"/);
  });
});

describe("drawPace", () => {
  it("draws within the ranges, tokens per second as ms per token", () => {
    const pace = { firstTokenMs: [150, 400], tokensPerSecond: [30, 80] } as const;
    expect(drawPace(pace, () => 0)).toEqual({ firstTokenMs: 150, tokenIntervalMs: 1000 / 30 });
    expect(drawPace(pace, () => 1)).toEqual({ firstTokenMs: 400, tokenIntervalMs: 1000 / 80 });
    expect(drawPace(pace, () => 0.5).firstTokenMs).toBe(275);
  });

  it("draws the same pace from the same seed, and spreads seeds over the ranges", () => {
    const pace = { firstTokenMs: [150, 400], tokensPerSecond: [30, 80] } as const;
    expect(drawPace(pace, seededRandom(7))).toEqual(drawPace(pace, seededRandom(7)));
    const firsts = Array.from({ length: 1000 }, (_, seed) => drawPace(pace, seededRandom(seed)).firstTokenMs);
    expect(Math.min(...firsts)).toBeGreaterThanOrEqual(150);
    expect(Math.max(...firsts)).toBeLessThanOrEqual(400);
    // Uniform enough: a quarter of the draws in each quarter of the range, give or take.
    const lowQuarter = firsts.filter((ms) => ms < 150 + 250 / 4).length;
    expect(lowQuarter).toBeGreaterThan(180);
    expect(lowQuarter).toBeLessThan(320);
  });
});

describe("a paced sim", () => {
  // One fixed draw (min = max), so that the times can be checked: 80 ms to the first token, then 50 tokens/s.
  const FIRST_TOKEN_MS = 80;
  const TOKEN_MS = 20;
  const TOKENS = 5;
  const chat = (stream: boolean) =>
    JSON.stringify({
      model: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
      messages: [{ role: "user", content: "Hello" }],
      stream,
    });

  it("streams the first event after the first-token time, then one event per token interval", async () => {
    const sim = await startProviderSim({
      pace: { firstTokenMs: [FIRST_TOKEN_MS, FIRST_TOKEN_MS], tokensPerSecond: [50, 50] },
      streamChunks: TOKENS,
    });
    try {
      const started = performance.now();
      const response = await fetch(`${sim.providerUrl("together")}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer key", "content-type": "application/json" },
        body: chat(true),
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      const eventTimes: number[] = [];
      let text = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const now = performance.now() - started;
        const piece = decoder.decode(value, { stream: true });
        for (let i = 0; i < piece.split("data: ").length - 1; i++) eventTimes.push(now);
        text += piece;
      }
      expect(text).toContain("data: [DONE]");
      // Timers never fire early (1 ms of rounding aside); how late they fire depends on the machine.
      expect(eventTimes[0]).toBeGreaterThanOrEqual(FIRST_TOKEN_MS - 1);
      // Role, content and finish events are each one token interval apart ([DONE] goes with the last one).
      expect(eventTimes.length).toBeGreaterThanOrEqual(TOKENS + 1);
      const intervals = eventTimes.length - 2;
      expect(eventTimes.at(-1)!).toBeGreaterThanOrEqual(FIRST_TOKEN_MS + intervals * TOKEN_MS - 2);
    } finally {
      await sim.close();
    }
  });

  it("keeps the stream's pace when its timers fire late: a late event does not delay the rest", async () => {
    const events = 12;
    const blockMs = 6;
    const sim = await startProviderSim({
      pace: { firstTokenMs: [0, 0], tokensPerSecond: [50, 50] },
      streamChunks: events,
    });
    // The sim shares this event loop: holding it 6 ms of every 7 makes each of its timers fire up to 6 ms late.
    const hog = setInterval(() => {
      const until = performance.now() + blockMs;
      while (performance.now() < until);
    }, 1);
    try {
      const response = await fetch(`${sim.providerUrl("together")}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer key", "content-type": "application/json" },
        body: chat(true),
      });
      const reader = response.body!.getReader();
      let firstAt: number | undefined;
      let lastAt = 0;
      for (;;) {
        const { done } = await reader.read();
        if (done) break;
        lastAt = performance.now();
        firstAt ??= lastAt;
      }
      // Paced from one event to the next, the lateness adds up over the 13 intervals (~3 ms each, ~40 ms in
      // all); paced from the first event, the stream ends at most about one block late.
      const intervals = events + 1;
      expect(lastAt - firstAt!).toBeGreaterThanOrEqual(intervals * TOKEN_MS - 2);
      expect(lastAt - firstAt!).toBeLessThan(intervals * TOKEN_MS + 3 * blockMs);
    } finally {
      clearInterval(hog);
      await sim.close();
    }
  });

  it("answers a non-streamed chat once every token would have been produced", async () => {
    const sim = await startProviderSim({
      pace: { firstTokenMs: [FIRST_TOKEN_MS, FIRST_TOKEN_MS], tokensPerSecond: [50, 50] },
      streamChunks: TOKENS,
    });
    try {
      const started = performance.now();
      const response = await fetch(`${sim.providerUrl("together")}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer key", "content-type": "application/json" },
        body: chat(false),
      });
      const body = (await response.json()) as { choices: unknown[] };
      expect(response.status).toBe(200);
      expect(body.choices).toHaveLength(1);
      expect(performance.now() - started).toBeGreaterThanOrEqual(FIRST_TOKEN_MS + TOKENS * TOKEN_MS - 2);
    } finally {
      await sim.close();
    }
  });

  it("draws a chat's pace from its seed", async () => {
    const pace = { firstTokenMs: [0, 400], tokensPerSecond: [1000, 1000] } as const;
    const seeds = Array.from({ length: 100 }, (_, seed) => seed);
    const fast = seeds.find((seed) => drawPace(pace, seededRandom(seed)).firstTokenMs < 20)!;
    const slow = seeds.find((seed) => drawPace(pace, seededRandom(seed)).firstTokenMs > 300)!;
    const sim = await startProviderSim({ pace });
    const timed = async (seed: number) => {
      const started = performance.now();
      const response = await fetch(`${sim.providerUrl("together")}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer key", "content-type": "application/json" },
        body: JSON.stringify({ ...JSON.parse(chat(false)), seed }),
      });
      await response.json();
      return performance.now() - started;
    };
    try {
      expect(await timed(slow)).toBeGreaterThanOrEqual(300);
      expect(await timed(fast)).toBeLessThan(250);
    } finally {
      await sim.close();
    }
  });

  it("leaves the admin API and an unpaced sim as fast as before", async () => {
    const sim = await startProviderSim({ streamChunks: TOKENS });
    try {
      const started = performance.now();
      const response = await fetch(`${sim.providerUrl("together")}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer key", "content-type": "application/json" },
        body: chat(false),
      });
      expect(response.status).toBe(200);
      await response.json();
      expect(performance.now() - started).toBeLessThan(FIRST_TOKEN_MS);
    } finally {
      await sim.close();
    }
  });
});
