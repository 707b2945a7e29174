import type { IncomingHttpHeaders } from "node:http";

/** One request the sim received, as tests and the admin endpoint see it. */
export interface RecordedRequest {
  /** Increasing from 1 for each sim. */
  seq: number;
  /** Sent back as the `x-request-id` response header (`sim-{seq}`). */
  requestId: string;
  method: string;
  /** The full path as received, with the query string (`/together/v1/chat/completions`). */
  path: string;
  /** The provider the path is mounted under, `hub`, `media`, or undefined for unknown paths. */
  provider: string | undefined;
  /** Lower-case header names; credential headers replaced by `[redacted]`. */
  headers: Record<string, string>;
  /** True when the request carried a credential header (`authorization`, `x-key`). */
  hadAuth: boolean;
  /** `Bearer hf_`, `Bearer`, `Key`, `X-Key` or undefined: which credential scheme it used. */
  authScheme: string | undefined;
  /** The body as text (binary bodies as `[N bytes]`). */
  bodyText: string;
  /** The parsed body when it was JSON. */
  json: unknown;
  /** Milliseconds since the epoch when the request arrived. */
  receivedAt: number;
}

const CREDENTIAL_HEADERS = new Set(["authorization", "x-key", "x-api-key", "api-key", "proxy-authorization"]);

export function describeAuthScheme(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (typeof authorization === "string") {
    if (/^Bearer hf_/.test(authorization)) return "Bearer hf_";
    const scheme = authorization.split(" ", 1)[0];
    return scheme || "unknown";
  }
  if (headers["x-key"] !== undefined) return "X-Key";
  return undefined;
}

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name] = CREDENTIAL_HEADERS.has(name)
      ? "[redacted]"
      : Array.isArray(value)
        ? value.join(", ")
        : value;
  }
  return result;
}

/** A bounded in-memory log (oldest dropped first) so long benchmark runs stay flat in memory. */
export class RequestLog {
  readonly #entries: RecordedRequest[] = [];
  #seq = 0;

  constructor(readonly limit: number) {}

  add(entry: Omit<RecordedRequest, "seq" | "requestId">): RecordedRequest {
    const seq = ++this.#seq;
    const recorded = { ...entry, seq, requestId: `sim-${seq}` };
    this.#entries.push(recorded);
    if (this.#entries.length > this.limit) this.#entries.splice(0, this.#entries.length - this.limit);
    return recorded;
  }

  get entries(): ReadonlyArray<RecordedRequest> {
    return this.#entries;
  }

  clear(): void {
    this.#entries.length = 0;
  }
}
