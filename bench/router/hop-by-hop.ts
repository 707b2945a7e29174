/** Hop-by-hop headers belong to each connection, not to the message (RFC 9110 §7.6.1): proxies drop them. */
export const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "host",
  "upgrade",
  "te",
  "trailer",
]);
