/**
 * The headers the Hono app's middleware puts on `/router/*` answers (CORS for any origin, security headers),
 * as constants for the node:http fast path (`node-router.ts`), which answers without going through Hono.
 * `node-router.test.ts` compares them with what the Hono app sends, so the two cannot drift apart.
 */

/** CORS headers of a non-preflight `/router/*` answer (`cors({ origin: "*", exposeHeaders })` in app.ts). */
export const ROUTER_CORS_HEADERS: Readonly<Record<string, string>> = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "Link,X-Request-Id,X-Error-Code,X-Error-Message,X-Inference-Provider",
};

/** The headers of `secureHeaders({ crossOriginResourcePolicy: "cross-origin", crossOriginEmbedderPolicy: false })`. */
export const ROUTER_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "cross-origin-resource-policy": "cross-origin",
  "cross-origin-opener-policy": "same-origin",
  "origin-agent-cluster": "?1",
  "referrer-policy": "no-referrer",
  "strict-transport-security": "max-age=15552000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "x-dns-prefetch-control": "off",
  "x-download-options": "noopen",
  "x-frame-options": "SAMEORIGIN",
  "x-permitted-cross-domain-policies": "none",
  "x-xss-protection": "0",
};

/** The security headers that matter for a piped (non-HTML) answer, as the Hono route sends them. */
export const PIPED_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "cross-origin-resource-policy": "cross-origin",
  "referrer-policy": "no-referrer",
};
