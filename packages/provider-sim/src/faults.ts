/**
 * Faults the sim injects on demand. Each applies to the requests its kind makes sense for: HTTP faults to
 * any provider or hub call, stream faults to streamed replies, job faults to job submissions. A queued fault
 * waits for the first request it applies to, and serves `times` of them (default 1).
 */

export type SimFault =
  /** Reply with this status (503 by default) and the provider's error body: a burst with `times`. */
  | (FaultBase & { kind: "status"; status?: number; message?: string })
  /** 429 with `Retry-After` in seconds. */
  | (FaultBase & { kind: "rate-limit"; retryAfterSeconds?: number })
  /** Wait before answering. */
  | (FaultBase & { kind: "delay"; ms: number })
  /** Destroy the socket before any reply. */
  | (FaultBase & { kind: "drop-connection" })
  /** Destroy the socket after `afterChunks` stream events. */
  | (FaultBase & { kind: "drop-stream"; afterChunks?: number })
  /** Send a broken event (invalid JSON) after `afterChunks` events, then carry on. */
  | (FaultBase & { kind: "malformed-sse"; afterChunks?: number })
  /** Send the provider's in-stream error event after `afterChunks` events, then end the stream. */
  | (FaultBase & { kind: "stream-error"; afterChunks?: number; message?: string })
  /** The next submitted job ends in the provider's failure status. */
  | (FaultBase & { kind: "job-fails"; message?: string })
  /** The next submitted job stays in progress forever. */
  | (FaultBase & { kind: "job-never-finishes" });

export interface FaultBase {
  /** How many applicable requests it serves; default 1. `Infinity` (or -1 over JSON) for every one. */
  times?: number;
  /** Restrict to one provider (`"hub"` for the hub API, `"media"` for media downloads). */
  provider?: string;
  /** Restrict to paths containing this text. */
  pathIncludes?: string;
}

export type FaultKind = SimFault["kind"];
export type FaultOf<K extends FaultKind> = Extract<SimFault, { kind: K }>;

export const FAILURE_FAULTS = ["status", "rate-limit", "drop-connection"] as const;
export const HTTP_FAULTS = [...FAILURE_FAULTS, "delay"] as const;
export const STREAM_FAULTS = ["drop-stream", "malformed-sse", "stream-error"] as const;
export const JOB_FAULTS = ["job-fails", "job-never-finishes"] as const;
const ALL_KINDS: readonly string[] = [...HTTP_FAULTS, ...STREAM_FAULTS, ...JOB_FAULTS];

export class InvalidFaultError extends Error {
  override name = "InvalidFaultError";
}

/** Checks a fault received as JSON (admin endpoint, header) and normalises `times: -1`. */
export function parseFault(value: unknown): SimFault {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new InvalidFaultError("A fault is a JSON object with a `kind`.");
  }
  const fault = { ...(value as Record<string, unknown>) };
  if (typeof fault.kind !== "string" || !ALL_KINDS.includes(fault.kind)) {
    throw new InvalidFaultError(
      `Unknown fault kind ${JSON.stringify(fault.kind)}; known: ${ALL_KINDS.join(", ")}.`,
    );
  }
  if (fault.kind === "delay" && typeof fault.ms !== "number") {
    throw new InvalidFaultError("A delay fault needs `ms` (a number).");
  }
  if (fault.times === -1 || fault.times === null) fault.times = Number.POSITIVE_INFINITY;
  if (fault.times !== undefined && (typeof fault.times !== "number" || fault.times < 1)) {
    throw new InvalidFaultError("`times` is a positive number (or -1 for always).");
  }
  return fault as unknown as SimFault;
}

/**
 * The `x-sim-fault` request header: a JSON fault, or the short forms `503`, `status:500`,
 * `rate-limit:2`, `delay:300`, `drop-connection`, `drop-stream:3`, `malformed-sse:1`, `stream-error:2`,
 * `job-fails`, `job-never-finishes`. It applies to that one request.
 */
export function parseFaultHeader(header: string): SimFault {
  const text = header.trim();
  if (text.startsWith("{")) return parseFault(JSON.parse(text));
  if (/^\d{3}$/.test(text)) return { kind: "status", status: Number(text) };
  const [kind, argument] = text.split(":", 2) as [string, string | undefined];
  const number = argument === undefined ? undefined : Number(argument);
  switch (kind) {
    case "status":
      return { kind, status: number ?? 503 };
    case "rate-limit":
      return { kind, retryAfterSeconds: number ?? 1 };
    case "delay":
      return { kind, ms: number ?? 100 };
    case "drop-stream":
    case "malformed-sse":
    case "stream-error":
      return { kind, afterChunks: number ?? 1 };
    default:
      return parseFault({ kind });
  }
}

interface QueuedFault {
  fault: SimFault;
  remaining: number;
}

/** The sim's fault queue. */
export class FaultQueue {
  #queue: QueuedFault[] = [];

  /** Replaces everything queued with this fault (or nothing). */
  set(fault: SimFault | null): void {
    this.#queue = fault ? [{ fault, remaining: fault.times ?? 1 }] : [];
  }

  add(fault: SimFault): void {
    this.#queue.push({ fault, remaining: fault.times ?? 1 });
  }

  list(): SimFault[] {
    return this.#queue.map((entry) => ({ ...entry.fault, times: entry.remaining }));
  }

  /** Takes one use of the first queued fault of these kinds that applies to this request. */
  take<K extends FaultKind>(
    kinds: readonly K[],
    target: { provider: string; path: string },
  ): FaultOf<K> | undefined {
    const index = this.#queue.findIndex(
      ({ fault }) =>
        (kinds as readonly string[]).includes(fault.kind) &&
        (fault.provider === undefined || fault.provider === target.provider) &&
        (fault.pathIncludes === undefined || target.path.includes(fault.pathIncludes)),
    );
    if (index < 0) return undefined;
    const entry = this.#queue[index]!;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.#queue.splice(index, 1);
    return entry.fault as FaultOf<K>;
  }
}
