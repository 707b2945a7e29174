import type { ServerResponse } from "node:http";
import type { SimContext } from "./context.js";
import { streamErrorEvent } from "./errors.js";
import { STREAM_FAULTS } from "./faults.js";
import { sleep } from "./http.js";

export interface SseOptions {
  /**
   * Coalesce consecutive events into writes of at least this many bytes (0 = one write per event, the
   * default and what real providers do). For throughput benchmarks that do not care about per-event framing.
   */
  batchBytes?: number;
  /** Line prefix: OpenAI-style servers write `data: `, TGI writes `data:` (no space). */
  dataPrefix?: string;
  /** Send `data: [DONE]` after the last event (OpenAI-compatible); TGI streams just end. */
  done?: boolean;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * Writes server-sent events one by one as they are produced: each event is its own `write` (unless
 * `batchBytes` asks to coalesce), the writer waits
 * for `drain` when the socket pushes back (memory stays flat whatever the stream size) and stops as soon as
 * the client goes away. Applies this request's stream faults.
 */
export async function writeSse(
  res: ServerResponse,
  context: SimContext,
  events: Iterable<string>,
  options: SseOptions = {},
): Promise<void> {
  const prefix = options.dataPrefix ?? "data: ";
  const fault = context.takeFault(STREAM_FAULTS);
  const faultAt = fault ? (fault.afterChunks ?? 1) : -1;
  let closed = false;
  const onClose = () => {
    closed = true;
  };
  res.on("close", onClose);
  res.writeHead(200, {
    "content-type": options.contentType ?? "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    ...options.headers,
  });
  // Headers go out at once, so clients see the response start before the first event.
  res.flushHeaders();

  const batchBytes = options.batchBytes ?? context.streamBatchBytes ?? 0;
  const interval = context.streamIntervalMs ?? 0;
  let pending = "";
  let sent = 0;
  let firstEventAt = 0;
  context.streams.active += 1;
  try {
    for (const event of events) {
      if (closed) return;
      if (sent === faultAt && fault) {
        if (pending !== "") {
          write(res, pending);
          pending = "";
        }
        if (fault.kind === "drop-stream") {
          dropConnection(res);
          return;
        }
        if (fault.kind === "stream-error") {
          const message = fault.message ?? "Simulated failure in the middle of the stream";
          res.end(`${prefix}${streamErrorEvent(context.provider.errors, message)}\n\n`);
          return;
        }
        await write(res, `${prefix}{"choices":[{"delta":{"content":"broken\n\n`);
      }
      if (interval > 0) {
        // Event n is due n intervals after the first, as a model's tokens come at the model's own pace:
        // a timer that fires late (a busy machine) delays that event, not every one after it.
        if (sent === 0) firstEventAt = performance.now();
        const wait = firstEventAt + sent * interval - performance.now();
        if (wait > 0) {
          await sleep(wait);
          if (closed) return;
        }
      }
      sent++;
      pending += `${prefix}${event}\n\n`;
      if (pending.length < batchBytes) continue;
      // Only a pushed-back write waits (for drain or close); the common case stays synchronous.
      const written = write(res, pending);
      pending = "";
      if (written !== true && !(await written)) return;
    }
    if (closed) return;
    if (pending !== "") write(res, pending);
    if (sent === faultAt && fault?.kind === "drop-stream") {
      dropConnection(res);
      return;
    }
    res.end(options.done === false ? undefined : `${prefix}[DONE]\n\n`);
  } finally {
    context.streams.active -= 1;
    res.off("close", onClose);
  }
}

/** Writes one chunk; resolves false when the connection closed before it could drain. */
function write(res: ServerResponse, chunk: string): Promise<boolean> | boolean {
  if (res.destroyed) return false;
  if (res.write(chunk)) return true;
  return new Promise((resolve) => {
    const onDrain = () => {
      res.off("close", onClose);
      resolve(true);
    };
    const onClose = () => {
      res.off("drain", onDrain);
      resolve(false);
    };
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}

/**
 * Closes the connection without finishing the chunked body, after what was written so far has gone out:
 * the client sees the first events, then a premature close.
 */
function dropConnection(res: ServerResponse): void {
  res.socket?.destroySoon();
}
