import { describe, expect, it } from "vitest";
import { createTemplateRenderer } from "./render-in-worker.js";
import type { RenderRequest, RenderWorkerMessage } from "./render-protocol.js";

/**
 * A stand-in worker (Node has no Web Worker): says it is ready after `loadMs` (its code loaded), answers
 * `delayMs` after that or after the request, whichever is later, or never; records terminations.
 */
function fakeWorkers(delayMs: number | "never", loadMs = 0) {
  const started: { terminated: boolean; requests: RenderRequest[] }[] = [];
  const start = () => {
    const state = { terminated: false, requests: [] as RenderRequest[] };
    started.push(state);
    const loaded = Date.now() + loadMs;
    const worker = {
      onmessage: null as ((event: MessageEvent<RenderWorkerMessage>) => void) | null,
      postMessage(request: RenderRequest) {
        state.requests.push(request);
        if (delayMs === "never") return;
        setTimeout(
          () => {
            if (!state.terminated)
              worker.onmessage?.({
                data: { id: request.id, prompt: request.source },
              } as MessageEvent<RenderWorkerMessage>);
          },
          Math.max(0, loaded - Date.now()) + delayMs,
        );
      },
      terminate() {
        state.terminated = true;
      },
    };
    setTimeout(() => {
      if (!state.terminated)
        worker.onmessage?.({ data: { ready: true } } as MessageEvent<RenderWorkerMessage>);
    }, loadMs);
    return worker as unknown as Worker;
  };
  return { start, started };
}

const context = { messages: [] };

describe("createTemplateRenderer", () => {
  it("answers with the worker's render, reusing one worker", async () => {
    const workers = fakeWorkers(5);
    const renderer = createTemplateRenderer(1000, workers.start);
    expect(await renderer.render("a", context)).toEqual({ prompt: "a" });
    expect(await renderer.render("b", context)).toEqual({ prompt: "b" });
    expect(workers.started).toHaveLength(1);
    renderer.dispose();
    expect(workers.started[0]!.terminated).toBe(true);
  });

  it("stops a render that runs past the time limit, and serves the next with a fresh worker", async () => {
    const workers = fakeWorkers("never");
    const renderer = createTemplateRenderer(50, workers.start);
    const started = Date.now();
    const outcome = await renderer.render("{{ forever }}", context);
    expect(outcome).toMatchObject({ phase: "timeout", error: expect.stringContaining("stopped") });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(workers.started[0]!.terminated).toBe(true);
    void renderer.render("next", context);
    expect(workers.started).toHaveLength(2);
    renderer.dispose();
  });

  it("times a render from when the worker has loaded its code, not from its start", async () => {
    // Loading the engine takes longer than the limit (a slow connection or phone); the render itself is quick.
    const workers = fakeWorkers(5, 120);
    const renderer = createTemplateRenderer(50, workers.start);
    expect(await renderer.render("slow to load", context)).toEqual({ prompt: "slow to load" });
    expect(workers.started).toHaveLength(1);
    renderer.dispose();
  });

  it("supersedes a running render: it resolves to null and its worker is stopped", async () => {
    const workers = fakeWorkers(30);
    const renderer = createTemplateRenderer(1000, workers.start);
    const first = renderer.render("first", context);
    const second = renderer.render("second", context);
    expect(await first).toBeNull();
    expect(await second).toEqual({ prompt: "second" });
    expect(workers.started[0]!.terminated).toBe(true);
    renderer.dispose();
  });
});
