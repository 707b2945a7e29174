/**
 * The security headers every answer carries: what hono's `secureHeaders` wrote with the hub's options
 * (`crossOriginResourcePolicy: "cross-origin"`, as the API and the widget script are read from other
 * origins; no `Cross-Origin-Embedder-Policy`), written out once as constants. They replace whatever a
 * handler set under the same names, as that middleware did.
 */
export const SECURITY_HEADERS: readonly (readonly [name: string, value: string])[] = [
  ["Cross-Origin-Resource-Policy", "cross-origin"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Origin-Agent-Cluster", "?1"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=15552000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-DNS-Prefetch-Control", "off"],
  ["X-Download-Options", "noopen"],
  ["X-Frame-Options", "SAMEORIGIN"],
  ["X-Permitted-Cross-Domain-Policies", "none"],
  ["X-XSS-Protection", "0"],
];

/** Puts the security headers on an answer's headers, and takes off `X-Powered-By` (it tells an attacker what runs). */
export function setSecurityHeaders(headers: Headers): void {
  for (const [name, value] of SECURITY_HEADERS) headers.set(name, value);
  headers.delete("X-Powered-By");
}

/** The lower-case names an answer's head loses to the security headers, `X-Powered-By` among them. */
const REPLACED_NAMES: ReadonlySet<string> = new Set([
  ...SECURITY_HEADERS.map(([name]) => name.toLowerCase()),
  "x-powered-by",
]);

/**
 * The headers node:http's `writeHead` is given, with the security headers in place of any of the same name
 * and without `X-Powered-By`: a new record (the given one may be shared), the same values as
 * setSecurityHeaders gives a `Headers`, written as plain properties rather than validated `Headers.set`s
 * (HubServerResponse, head-with-body.ts, puts them on every answer the Node server sends this way).
 */
export function withSecurityHeaders(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    if (REPLACED_NAMES.has(name) || REPLACED_NAMES.has(name.toLowerCase())) continue;
    merged[name] = headers[name];
  }
  for (const [name, value] of SECURITY_HEADERS) merged[name] = value;
  return merged;
}

/** Whether a header name is one the security headers replace (any case). */
export function isReplacedBySecurityHeaders(name: string): boolean {
  return REPLACED_NAMES.has(name.toLowerCase());
}
