import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/**
 * A request header by its lower-case name, read from node:http's parsed headers when the request came through
 * the Node server (no name validation, no `Headers` lookup: the envelope reads three per request), else
 * through Hono (in-process requests, the tests). node:http has already refused invalid names and values, and
 * joins repeated headers as `Headers` does (it keeps the first of a repeated `Content-Length`, which its parser
 * refuses when they differ).
 */
export function incomingHeader(c: Context, lowerName: string): string | undefined {
  const headers = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.headers;
  if (headers === undefined) return c.req.header(lowerName);
  const value = headers[lowerName];
  return typeof value === "string" ? value : value === undefined ? undefined : c.req.header(lowerName);
}
