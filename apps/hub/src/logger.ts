export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

/** Structured logger injected everywhere; the hub never writes to the console on its own. */
export interface Logger {
  log(level: LogLevel, message: string, fields?: LogFields): void;
}

const LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Field names whose values are never written, whatever they hold. */
const SECRET_FIELD = /(authorization|token|api[-_]?key|secret|password|cookie)/i;

/** Removes values that look like credentials from a log record, recursively. */
export function redactFields(fields: LogFields, secrets: readonly string[] = []): LogFields {
  const result: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    if (SECRET_FIELD.test(key) && key !== "tokenId" && key !== "tokenName") {
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

/** Replaces hub tokens, bearer credentials and the given secret values inside a string. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let result = text.replace(HUB_TOKEN_PATTERN, "hf_[redacted]").replace(BEARER_PATTERN, "Bearer [redacted]");
  for (const secret of secrets) {
    if (secret.length >= 4) result = result.split(secret).join("[redacted]");
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
  const now = options.now ?? (() => new Date());
  return {
    log(level, message, fields = {}) {
      if (LEVEL_ORDER[level] < minimum) return;
      const record = {
        time: now().toISOString(),
        level,
        msg: redactSecrets(message, secrets),
        ...redactFields(fields, secrets),
      };
      options.write(JSON.stringify(record));
    },
  };
}

export const silentLogger: Logger = { log() {} };

/** Collects records in memory; for tests that check what was (and was not) logged. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const inner = createJsonLogger({ write: (line) => lines.push(line), level: "debug" });
  return { lines, log: inner.log };
}
