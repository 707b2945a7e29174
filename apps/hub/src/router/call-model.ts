/** A JSON object whose first key is `model` with a string value. */
const FIRST_KEY_MODEL = /^\{\s*"model"\s*:\s*"([^"\\]*)"/;

/**
 * The hub model a router call is about, for usage records: the JSON body's `model`, or the `/models/{id}`
 * (or `/pipeline/{task}/{id}`) path. The node:http fast path's copy of the Hono route's rule.
 */
export function modelOfCall(body: Uint8Array | undefined, providerPath: string): string | null {
  if (body && body.byteLength > 0 && body[0] === 0x7b) {
    // The OpenAI clients (and the hub's snippets) send `model` first: read it without parsing the whole body.
    const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 512)).toString("latin1");
    const first = FIRST_KEY_MODEL.exec(head);
    if (first?.[1] !== undefined) return Buffer.from(first[1], "latin1").toString("utf8").slice(0, 200);
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
