import type { MiddlewareHandler } from "hono";
import { InvalidInputError } from "../errors.js";

/** A `.` or `..` path segment, literal or percent-encoded. */
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$|\?|#)/i;

/**
 * Refuses request targets with `.` or `..` segments. URL parsing would silently resolve them (so that
 * `/router/x/../../api/...` turned into another route); a client that sends them is confused or probing, and
 * gets a clear 400 instead. Reads the raw target from the Node request when there is one.
 */
export const dotSegmentGuard: MiddlewareHandler = async (c, next) => {
  const incoming = (c.env as { incoming?: { url?: string } } | undefined)?.incoming;
  const target = incoming?.url ?? "";
  const path = target.split("?")[0] ?? "";
  if (DOT_SEGMENT.test(path)) {
    throw new InvalidInputError('Request paths may not contain "." or ".." segments.');
  }
  await next();
};
