/**
 * The headers the router (`node-router.ts`) puts on its answers besides the request id: CORS for any origin,
 * and the security headers of the Hono app's `secureHeaders()` middleware.
 */

/**
 * CORS headers of a non-preflight router answer, sent only to a caller whose request carries `Origin`: browsers
 * send it on every cross-origin request CORS governs, API clients never do, and the two long headers cost
 * those clients a parse per call. Preflights are the Hono app's (`cors()` on `/router/*` in app.ts).
 */
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
