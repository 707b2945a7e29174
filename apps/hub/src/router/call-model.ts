/**
 * The hub model a router call is about, for usage records: the JSON body's `model`, or the `/models/{id}`
 * (or `/pipeline/{task}/{id}`) path. The node:http fast path's copy of the Hono route's rule.
 */
export function modelOfCall(body: Uint8Array | undefined, providerPath: string): string | null {
  if (body && body.byteLength > 0 && body[0] === 0x7b) {
    try {
      const parsed = JSON.parse(
        Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8"),
      ) as {
        model?: unknown;
      };
      if (typeof parsed.model === "string") return parsed.model.slice(0, 200);
    } catch {
      // Not JSON: fall through to the path.
    }
  }
  const match = /^\/(?:models|pipeline\/[^/]+)\/([^/?]+\/[^/?]+|[^/?]+)/.exec(providerPath);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]).slice(0, 200);
  } catch {
    return match[1].slice(0, 200);
  }
}
