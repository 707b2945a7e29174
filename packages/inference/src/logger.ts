import type { Logger } from "./types.js";

/**
 * The logger a call uses when none is injected (`options.logger`). The specification's client warns about a
 * staging mapping by default, so this one writes warnings and errors to the console; debug messages (retries)
 * stay silent. This is the only place the package touches the console: inject a logger to send them
 * elsewhere, or `{ warn() {}, error() {} }` to silence them.
 */
export const defaultLogger: Logger & Required<Pick<Logger, "warn" | "error">> = {
  warn: (message) => console.warn(message),
  error: (message, detail) =>
    detail === undefined ? console.error(message) : console.error(message, detail),
};
