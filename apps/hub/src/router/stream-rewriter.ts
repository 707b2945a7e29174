/** One text to replace in a provider's answer, and what replaces it. */
export interface Rewrite {
  find: string;
  replace: string;
}

/** The hub's credential for a provider, as it must never come back. */
export const redact = (secret: string): Rewrite => ({ find: secret, replace: "[redacted]" });

/**
 * Replaces texts in a body passed on chunk by chunk (the provider's key, the provider's internal base URL),
 * including a text split across two chunks, without holding anything back in the usual case: only a chunk
 * that ends with the first bytes of a text keeps those bytes until the next chunk (or the end) shows whether
 * the text follows. SSE events end with a blank line, so they pass at once.
 */
export function createStreamRewriter(rewrites: readonly Rewrite[] | CompiledRewrites) {
  const compiled = Array.isArray(rewrites) ? compileRewrites(rewrites) : (rewrites as CompiledRewrites);
  let pending: Buffer | undefined;

  return {
    /** The part of the body that can go out now. */
    push(chunk: Buffer): Buffer {
      let data = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = undefined;
      data = replaceEvery(data, compiled);
      const held = heldAtEnd(data, compiled);
      if (held === 0) return data;
      pending = Buffer.from(data.subarray(data.byteLength - held));
      return data.subarray(0, data.byteLength - held);
    },
    /**
     * Whether `push(chunk)` would give `chunk` back as it is, holding nothing: nothing held from before, no
     * text in it, and no end that may begin one. (The caller may then pass on `chunk`, or a copy of it, itself.)
     */
    passesAsIs(chunk: Buffer): boolean {
      if (pending) return false;
      for (const pair of compiled.pairs) if (chunk.indexOf(pair.find) !== -1) return false;
      return heldAtEnd(chunk, compiled) === 0;
    },
    /** What was held back, at the end of the body. */
    end(): Buffer {
      const rest = pending ?? EMPTY;
      pending = undefined;
      return rest;
    },
  };
}

const EMPTY = Buffer.alloc(0);

/** A whole body with every rewrite applied: the same buffer when none applies (the usual case). */
export function rewriteBody(data: Buffer, compiled: CompiledRewrites): Buffer {
  return replaceEvery(data, compiled);
}

function replaceEvery(data: Buffer, compiled: CompiledRewrites): Buffer {
  let result = data;
  for (const pair of compiled.pairs) {
    if (result.indexOf(pair.find) !== -1) result = replaceAll(result, pair.find, pair.replace);
  }
  return result;
}

/**
 * How many bytes at the end of `data` may begin one of the texts, to hold until the next chunk. Most chunks
 * end with a byte no text has before its last one (an SSE event's blank line, a JSON body's `}`): one table
 * lookup, no search.
 */
function heldAtEnd(data: Buffer, compiled: CompiledRewrites): number {
  if (data.byteLength === 0 || compiled.prefixBytes[data[data.byteLength - 1]!] === 0) return 0;
  let held = 0;
  for (const pair of compiled.pairs) held = Math.max(held, partialAtEnd(data, pair.find));
  return held;
}

/** Rewrites as buffers, prepared once for many bodies. */
export interface CompiledRewrites {
  readonly rewrites: readonly Rewrite[];
  readonly pairs: ReadonlyArray<{ find: Buffer; replace: Buffer }>;
  /** Per byte value: 1 when some text has that byte before its last one (where a held-back prefix can end). */
  readonly prefixBytes: Uint8Array;
}

export function compileRewrites(rewrites: readonly Rewrite[]): CompiledRewrites {
  const usable = rewrites.filter((rewrite) => rewrite.find.length > 0);
  const pairs = usable.map((rewrite) => ({
    find: Buffer.from(rewrite.find),
    replace: Buffer.from(rewrite.replace),
  }));
  const prefixBytes = new Uint8Array(256);
  for (const { find } of pairs) for (let i = 0; i < find.byteLength - 1; i++) prefixBytes[find[i]!] = 1;
  return { rewrites: usable, pairs, prefixBytes };
}

/** Rewrites a whole (small) body at once. */
export function rewriteText(text: string, rewrites: readonly Rewrite[]): string {
  let result = text;
  for (const { find, replace } of rewrites)
    if (find && result.includes(find)) result = result.replaceAll(find, replace);
  return result;
}

/** How many bytes at the end of `data` are the start of `needle` (at most its length - 1). */
function partialAtEnd(data: Buffer, needle: Buffer): number {
  const longest = Math.min(needle.byteLength - 1, data.byteLength);
  for (let length = longest; length > 0; length--) {
    const from = data.byteLength - length;
    if (data[from] !== needle[0]) continue;
    // Compared in place: no buffer views allocated per candidate.
    if (needle.compare(data, from, data.byteLength, 0, length) === 0) return length;
  }
  return 0;
}

function replaceAll(data: Buffer, find: Buffer, replace: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = data.indexOf(find); at !== -1; at = data.indexOf(find, from)) {
    parts.push(data.subarray(from, at), replace);
    from = at + find.byteLength;
  }
  parts.push(data.subarray(from));
  return Buffer.concat(parts);
}

/** A header value with the rewrites applied (a provider may echo its key, or point at its own host). */
export function rewriteHeaderValue<T extends string | string[] | number>(
  value: T,
  rewrites: readonly Rewrite[],
): T {
  if (typeof value === "string") return rewriteText(value, rewrites) as T;
  if (Array.isArray(value)) return value.map((item) => rewriteText(item, rewrites)) as T;
  return value;
}
