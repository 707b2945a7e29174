/**
 * One error hierarchy for the client. Every failure the client reports is an `InferenceError`.
 * The marker is a registered symbol (`Symbol.for`), so `isInstance` keeps working when two copies of
 * the package are installed side by side, where `instanceof` would not.
 */
const MARKER = Symbol.for("@modelhub/inference.error");

/** The request as it was sent, minus secrets: safe to log or attach to bug reports. */
export interface RedactedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
}

const SECRET_HEADERS = new Set(["authorization", "x-key", "api-key", "x-api-key", "cookie"]);

export function redactRequest(url: string, method: string, headers: Record<string, string>): RedactedRequest {
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    safe[name] = SECRET_HEADERS.has(name.toLowerCase()) ? redactValue(value) : value;
  }
  return { url, method, headers: safe };
}

function redactValue(value: string): string {
  // Keep the scheme ("Bearer", "Key") so a reader can still tell which auth style was used.
  const space = value.indexOf(" ");
  return space > 0 ? `${value.slice(0, space)} [redacted]` : "[redacted]";
}

export class InferenceError extends Error {
  static readonly errorName: string = "InferenceError";
  readonly [MARKER] = true;
  /** Names of every class in this error's chain; what `isInstance` checks. */
  readonly errorNames: readonly string[];

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const names: string[] = [];
    for (let ctor = new.target as unknown; ctor && ctor !== Error; ctor = Object.getPrototypeOf(ctor)) {
      const name = (ctor as { errorName?: string }).errorName;
      if (name && !names.includes(name)) names.push(name);
    }
    this.errorNames = names;
    this.name = names[0] ?? "InferenceError";
  }

  /** `instanceof` that survives duplicated installs: matches on the registered marker and class name. */
  static isInstance<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    if (typeof value !== "object" || value === null) return false;
    if ((value as Record<symbol, unknown>)[MARKER] !== true) return false;
    // biome-ignore lint/complexity/noThisInStatic: polymorphic on purpose, each subclass checks its own name
    const wanted = (this as unknown as { errorName: string }).errorName;
    return ((value as InferenceError).errorNames ?? []).includes(wanted);
  }
}

/** The caller's arguments are invalid; retrying will not help. */
export class InputError extends InferenceError {
  static override readonly errorName = "InputError";
}

/** No provider / model / task combination could be resolved (hub mapping, registry, default model). */
export class RoutingError extends InferenceError {
  static override readonly errorName = "RoutingError";
}

export interface ProviderApiErrorDetails {
  status: number;
  provider: string;
  requestId: string | undefined;
  request: RedactedRequest;
  retryable: boolean;
  /** Parsed JSON error body when there was one, otherwise the text. */
  body: unknown;
}

/** A provider (or the hub) answered with a non-OK status. */
export class ProviderApiError extends InferenceError {
  static override readonly errorName = "ProviderApiError";
  readonly status: number;
  readonly provider: string;
  readonly requestId: string | undefined;
  readonly request: RedactedRequest;
  readonly retryable: boolean;
  readonly body: unknown;

  constructor(message: string, details: ProviderApiErrorDetails, options?: { cause?: unknown }) {
    super(message, options);
    this.status = details.status;
    this.provider = details.provider;
    this.requestId = details.requestId;
    this.request = details.request;
    this.retryable = details.retryable;
    this.body = details.body;
  }
}

/** The provider answered OK but the payload is not the documented shape. */
export class ProviderOutputError extends InferenceError {
  static override readonly errorName = "ProviderOutputError";
}

/** A stream broke off (connection dropped) before its end marker. */
export class StreamError extends InferenceError {
  static override readonly errorName = "StreamError";
}

/** An asynchronous job reported a failure status. */
export class JobFailedError extends InferenceError {
  static override readonly errorName = "JobFailedError";
  readonly provider: string;
  readonly status: string;
  constructor(message: string, provider: string, status: string) {
    super(message);
    this.provider = provider;
    this.status = status;
  }
}

/** The request could not be sent or the connection failed, after every allowed retry. */
export class NetworkError extends InferenceError {
  static override readonly errorName = "NetworkError";
}

/** A per-attempt timeout, the overall timeout or a polling deadline elapsed. */
export class TimeoutError extends InferenceError {
  static override readonly errorName = "TimeoutError";
}

/** The caller's AbortSignal fired. */
export class AbortError extends InferenceError {
  static override readonly errorName = "AbortError";
}
