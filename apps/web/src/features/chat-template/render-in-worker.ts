import type { ChatTemplateInput } from "@modelhub/jinja";
import type { RenderOutcome, RenderRequest, RenderWorkerMessage } from "./render-protocol.js";

/**
 * How long a render may take before its worker is stopped: the engine's own limits end most far sooner. The
 * clock runs from when the worker's code is loaded (its ready message), not from its start: on a slow
 * connection or CPU, loading the engine alone can take longer than this.
 */
export const RENDER_TIME_LIMIT_MS = 2000;

type StartWorker = () => Worker;

const startRenderWorker: StartWorker = () =>
  new Worker(new URL("./render-worker.ts", import.meta.url), { type: "module", name: "chat-template" });

/**
 * Renders chat templates in a worker with a hard time limit, so that a hostile template can never freeze
 * the page: past the limit the worker is terminated (a fresh one serves the next render). A render asked
 * while another is running supersedes it: the running one is stopped the same way, and resolves to null.
 */
export function createTemplateRenderer(
  timeLimitMs = RENDER_TIME_LIMIT_MS,
  start: StartWorker = startRenderWorker,
) {
  let worker: Worker | undefined;
  /** The current worker has loaded its code (it posted RenderWorkerReady): its render can be timed. */
  let workerReady = false;
  let nextId = 0;
  let running:
    | {
        id: number;
        finish: (outcome: RenderOutcome | null) => void;
        timer: ReturnType<typeof setTimeout> | undefined;
      }
    | undefined;

  const stopWorker = () => {
    worker?.terminate();
    worker = undefined;
    workerReady = false;
  };

  /** Starts the running render's time limit, once the worker can render. */
  const armRunning = () => {
    const render = running;
    if (!render || render.timer || !workerReady) return;
    render.timer = setTimeout(() => {
      if (running?.id !== render.id) return;
      running = undefined;
      stopWorker();
      render.finish({
        error: `The template was stopped after ${timeLimitMs / 1000} s: it is too slow to render here.`,
        phase: "timeout",
      });
    }, timeLimitMs);
  };

  return {
    render(source: string, context: ChatTemplateInput): Promise<RenderOutcome | null> {
      if (running) {
        clearTimeout(running.timer);
        running.finish(null);
        running = undefined;
        stopWorker();
      }
      if (!worker) {
        worker = start();
        worker.onmessage = (event: MessageEvent<RenderWorkerMessage>) => {
          if ("ready" in event.data) {
            workerReady = true;
            armRunning();
            return;
          }
          if (!running || event.data.id !== running.id) return;
          const { id: _id, ...outcome } = event.data;
          clearTimeout(running.timer);
          const { finish } = running;
          running = undefined;
          finish(outcome);
        };
      }
      const id = ++nextId;
      return new Promise((resolve) => {
        running = { id, finish: resolve, timer: undefined };
        armRunning();
        const request: RenderRequest = { id, source, context };
        worker!.postMessage(request);
      });
    },
    dispose(): void {
      if (running) {
        clearTimeout(running.timer);
        running.finish(null);
        running = undefined;
      }
      stopWorker();
    },
  };
}

export type TemplateRenderer = ReturnType<typeof createTemplateRenderer>;
