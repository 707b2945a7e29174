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
