const REDACTED = Buffer.from("[redacted]");

/**
 * Removes a secret from a body passed on chunk by chunk, including a secret split across two chunks, without
 * holding anything back in the usual case: only a chunk that ends with the first bytes of the secret keeps
 * those bytes until the next chunk (or the end) shows whether the secret follows.
 */
export function createSecretScrubber(secret: string) {
  const needle = Buffer.from(secret);
  let pending: Buffer | undefined;

  /** How many bytes at the end of `data` are the start of the secret (at most its length - 1). */
  function partialAtEnd(data: Buffer): number {
    const longest = Math.min(needle.byteLength - 1, data.byteLength);
    for (let length = longest; length > 0; length--) {
      if (data[data.byteLength - length] !== needle[0]) continue;
      if (data.subarray(data.byteLength - length).equals(needle.subarray(0, length))) return length;
    }
    return 0;
  }

  return {
    /** The part of the body that can go out now. */
    push(chunk: Buffer): Buffer {
      let data = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = undefined;
      if (needle.byteLength === 0) return data;
      if (data.indexOf(needle) !== -1) data = replaceAll(data, needle);
      const held = partialAtEnd(data);
      if (held === 0) return data;
      pending = Buffer.from(data.subarray(data.byteLength - held));
      return data.subarray(0, data.byteLength - held);
    },
    /** What was held back, at the end of the body. */
    end(): Buffer {
      const rest = pending ?? Buffer.alloc(0);
      pending = undefined;
      return rest;
    },
  };
}

function replaceAll(data: Buffer, needle: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = data.indexOf(needle); at !== -1; at = data.indexOf(needle, from)) {
    parts.push(data.subarray(from, at), REDACTED);
    from = at + needle.byteLength;
  }
  parts.push(data.subarray(from));
  return Buffer.concat(parts);
}

/** A header value with the secret replaced, when it carries it. */
export function scrubHeaderValue<T extends string | string[] | number>(value: T, secret: string): T {
  if (!secret) return value;
  if (typeof value === "string")
    return (value.includes(secret) ? value.replaceAll(secret, "[redacted]") : value) as T;
  if (Array.isArray(value)) return value.map((item) => item.replaceAll(secret, "[redacted]")) as T;
  return value;
}
