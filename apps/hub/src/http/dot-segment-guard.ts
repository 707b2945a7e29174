import type { MiddlewareHandler } from "hono";
import { InvalidInputError } from "../errors.js";

/** A `.` or `..` path segment, literal or percent-encoded. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$|\?|#)/i;

/**
 * Refuses request targets with `.` or `..` segments. URL parsing would silently resolve them (so that
 * `/router/x/../../api/...` turned into another route); a client that sends them is confused or probing, and
 * gets a clear 400 instead. Reads the raw target from the Node request when there is one.
 */
export const dotSegmentGuard: MiddlewareHandler = (c, next) => {
  const incoming = (c.env as { incoming?: { url?: string } } | undefined)?.incoming;
  const target = incoming?.url ?? "";
  const query = target.indexOf("?");
  if (DOT_SEGMENT.test(query === -1 ? target : target.slice(0, query))) {
    throw new InvalidInputError('Request paths may not contain "." or ".." segments.');
  }
  // Not async: one promise fewer on every request; a throw above is caught by Hono's dispatch all the same.
  return next();
};
