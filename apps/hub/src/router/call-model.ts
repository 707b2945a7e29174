/** A JSON object whose first key is `model` with a string value. */
const FIRST_KEY_MODEL = /^\{\s*"model"\s*:\s*"([^"\\]*)"/;
const COMPACT_MODEL = Buffer.from('{"model":"');
const MODEL_KEY = Buffer.from('"model"');

/**
 * Where the value of `model` lies in a body that starts `{"model":"` exactly (compact JSON, as the JS
 * clients send it), when that value has no escapes and no other `"model"` follows it (a second key of the
 * name would be the one JSON.parse, and most servers, read): its bytes, to read or replace without parsing.
 */
export function compactModelSpan(body: Buffer): { start: number; end: number } | undefined {
  const start = COMPACT_MODEL.byteLength;
  if (body.byteLength <= start || COMPACT_MODEL.compare(body, 0, start, 0, start) !== 0) return undefined;
  const end = body.indexOf(0x22, start);
  if (end === -1) return undefined;
  for (let at = start; at < end; at++) if (body[at] === 0x5c) return undefined;
  if (body.indexOf(MODEL_KEY, end) !== -1) return undefined;
  return { start, end };
}

/**
 * The hub model a router call is about, for usage records: the JSON body's `model`, or the `/models/{id}`
 * (or `/pipeline/{task}/{id}`) path. The node:http fast path's copy of the Hono route's rule.
 */
export function modelOfCall(body: Uint8Array | undefined, providerPath: string): string | null {
  if (body && body.byteLength > 0 && body[0] === 0x7b) {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    const span = compactModelSpan(bytes);
    if (span) return bytes.toString("utf8", span.start, span.end).slice(0, 200);
    // The OpenAI clients (and the hub's snippets) send `model` first: read it without parsing the whole body,
    // unless the body names a model twice (JSON.parse, like most servers, takes the last one).
    const head = bytes.toString("latin1", 0, Math.min(bytes.byteLength, 512));
    const first = FIRST_KEY_MODEL.exec(head);
    if (first?.[1] !== undefined && bytes.indexOf(MODEL_KEY, bytes.indexOf(MODEL_KEY) + 1) === -1) {
      return Buffer.from(first[1], "latin1").toString("utf8").slice(0, 200);
    }
    try {
      const parsed = JSON.parse(bytes.toString("utf8")) as { model?: unknown };
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
