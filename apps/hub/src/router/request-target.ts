import type { Context } from "hono";
import type { HubEnv } from "../http/hub-env.js";

/**
 * The request target as the caller sent it (path and query, neither decoded nor normalized): the router
 * checks the provider path it forwards, and model ids in paths, on the caller's own bytes. Read from
 * node:http's request when there is one (as http/dot-segment-guard.ts does).
 */
export function requestTarget(c: Context<HubEnv>): string {
  const incoming = (c.env as { incoming?: { url?: string } } | undefined)?.incoming;
  if (incoming?.url !== undefined) return incoming.url;
  const url = new URL(c.req.url);
  return url.pathname + url.search;
}
