export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

/** Structured logger injected everywhere; the hub never writes to the console on its own. */
export interface Logger {
  log(level: LogLevel, message: string, fields?: LogFields): void;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Field names whose values are never written, whatever they hold. */
const SECRET_FIELD = /(authorization|token|api[-_]?key|secret|password|cookie)/i;

/** Whether a field name's value is never written (the same few names come on every line: asked once each). */
const secretFieldNames = new Map<string, boolean>();
function isSecretField(key: string): boolean {
  let secret = secretFieldNames.get(key);
  if (secret === undefined) {
    secret = SECRET_FIELD.test(key) && key !== "tokenId" && key !== "tokenName";
    if (secretFieldNames.size < 10_000) secretFieldNames.set(key, secret);
  }
  return secret;
}

/** Removes values that look like credentials from a log record, recursively. */
export function redactFields(fields: LogFields, secrets: readonly string[] = []): LogFields {
  return redactInto({}, fields, secrets);
}

/** Copies `fields` into `result` with the values that look like credentials removed, recursively. */
function redactInto(result: LogFields, fields: LogFields, secrets: readonly string[]): LogFields {
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (isSecretField(key)) {
      result[key] = "[redacted]";
    } else if (typeof value === "string") {
      result[key] = redactSecrets(value, secrets);
    } else if (value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Error)) {
      result[key] = redactFields(value as LogFields, secrets);
    } else if (value instanceof Error) {
      result[key] = { name: value.name, message: redactSecrets(value.message, secrets) };
    } else {
      result[key] = value;
    }
  }
  return result;
}

const HUB_TOKEN_PATTERN = /hf_[A-Za-z0-9]{8,}/g;
const BEARER_PATTERN = /Bearer\s+[^\s"']+/gi;

/** What any match of BEARER_PATTERN contains. */
const MAY_HOLD_BEARER = /bearer/i;

/**
 * Replaces hub tokens, bearer credentials and the given secret values inside a string. Each replacement runs
 * only where its text occurs (most values hold none): two log lines per router call, 6.5 -> 3.3 µs.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let result = text;
  if (result.includes("hf_")) result = result.replace(HUB_TOKEN_PATTERN, "hf_[redacted]");
  if (MAY_HOLD_BEARER.test(result)) result = result.replace(BEARER_PATTERN, "Bearer [redacted]");
  for (const secret of secrets) {
    if (secret.length >= 4 && result.includes(secret)) result = result.split(secret).join("[redacted]");
  }
  return result;
}

export interface JsonLoggerOptions {
  /** Receives one JSON line per record. */
  write: (line: string) => void;
  level?: LogLevel;
  /** Exact secret values (provider keys, admin token) to blank out wherever they appear. */
  secrets?: readonly string[];
  now?: () => Date;
}

export function createJsonLogger(options: JsonLoggerOptions): Logger {
  const minimum = LEVEL_ORDER[options.level ?? "info"];
  const secrets = options.secrets ?? [];
  const injectedNow = options.now;
  const timeOf = injectedNow ? () => injectedNow().toISOString() : isoTimeNow;
  return {
    log(level, message, fields = {}) {
      if (LEVEL_ORDER[level] < minimum) return;
      const time = timeOf();
      const msg = redactSecrets(message, secrets);
      if (!needsRedactedCopy(fields, secrets)) {
        // The usual line (every router call writes one): its fields written as they are, after the line's
        // own three, without copying them into a new record first.
        const json = JSON.stringify(fields);
        const head = `{"time":"${time}","level":"${level}","msg":${JSON.stringify(msg)}`;
        options.write(json.length > 2 ? `${head},${json.slice(1)}` : `${head}}`);
        return;
      }
      const record: LogFields = { time, level, msg };
      options.write(JSON.stringify(redactInto(record, fields, secrets)));
    },
  };
}

/** The line's own keys: a field of the same name replaces the line's value, as the copied record does. */
const LINE_KEYS = new Set(["time", "level", "msg"]);

/**
 * Whether a record must be copied to be written: a field whose name is secret, a string holding something
 * redactSecrets would replace, a nested object or an Error, a value JSON writes otherwise than as it is
 * (undefined, a function), or a field named as the line's own keys. Else its JSON is the copy's JSON.
 */
function needsRedactedCopy(fields: LogFields, secrets: readonly string[]): boolean {
  for (const key in fields) {
    if (!Object.hasOwn(fields, key) || isSecretField(key) || LINE_KEYS.has(key)) return true;
    const value = fields[key];
    if (typeof value === "string") {
      if (value.includes("hf_") || MAY_HOLD_BEARER.test(value)) return true;
      for (const secret of secrets) if (secret.length >= 4 && value.includes(secret)) return true;
    } else if (value !== null && typeof value !== "number" && typeof value !== "boolean") {
      return true;
    }
  }
  return false;
}

/**
 * `new Date().toISOString()`, formatted once per millisecond: calls finishing together log in the same
 * millisecond, and a Date and its formatting per line was a visible part of a router call's line.
 */
let isoMs = Number.NaN;
let isoText = "";
function isoTimeNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = isoTime(ms);
  }
  return isoText;
}

/** `.000Z` to `.999Z`: the millisecond part of an ISO time, by millisecond. */
const MILLIS_SUFFIX = Array.from({ length: 1000 }, (_, ms) => `${String(ms).padStart(3, "0")}Z`);
let isoSecond = Number.NaN;
let isoSecondPrefix = "";

/**
 * `new Date(ms).toISOString()`, its date and time up to the second formatted once per second and the
 * millisecond appended: at ~3,000 router calls a second nearly every line falls in a new millisecond, and the
 * Date and its formatting were ~1% of the hub's CPU per call (bench/results/2026-11-30-router-percall.md).
 */
export function isoTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    // Up to and with the dot (`2026-11-30T22:09:51.`; years past 9999 are longer, the tail is always `.000Z`).
    isoSecondPrefix = new Date(second * 1000).toISOString().slice(0, -4);
  }
  return isoSecondPrefix + MILLIS_SUFFIX[ms - second * 1000]!;
}

export const silentLogger: Logger = { log() {} };

/** Writers holding lines not yet written, written out when the process exits. */
const unwritten = new Set<() => void>();
let writesAtExit = false;

/**
 * A line writer for createJsonLogger that writes the lines logged in one turn of the event loop together, at
 * the end of that turn (and whatever is left when the process exits): one write instead of one per line.
 * When a router call logged two lines at the default level, one write per line to a pipe cost ~5 µs more per call
 * (64 concurrent calls).
 */
export function writeLinesPerTurn(write: (text: string) => void): (line: string) => void {
  let lines: string[] = [];
  const flush = () => {
    unwritten.delete(flush);
    if (lines.length === 0) return;
    const text = `${lines.join("\n")}\n`;
    lines = [];
    write(text);
  };
  return (line) => {
    lines.push(line);
    if (lines.length > 1) return;
    unwritten.add(flush);
    setImmediate(flush);
    if (!writesAtExit) {
      writesAtExit = true;
      process.once("exit", () => {
        for (const pending of unwritten) pending();
      });
    }
  };
}

/** Collects records in memory; for tests that check what was (and was not) logged. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const inner = createJsonLogger({ write: (line) => lines.push(line), level: "debug" });
  return { lines, log: inner.log };
}
