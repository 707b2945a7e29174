import { KeyForms, type KeySpan, partialAtEnd } from "./key-forms.js";

/** One text to replace in a provider's answer, and what replaces it. */
export interface Rewrite {
  find: string;
  replace: string;
  /** A credential: found in every form it may be echoed in (key-forms.ts), not only as written. */
  everyForm?: boolean;
}

/** The hub's credential for a provider, as it must never come back, in any form. */
export const redact = (secret: string): Rewrite => ({ find: secret, replace: "[redacted]", everyForm: true });

/**
 * At the very end of an answer, held bytes that already spell this many of a key's characters (in some form)
 * are redacted rather than sent: a provider must not be able to leak a key's first characters by ending its
 * answer there. Fewer are sent as they are (a body ending in `s` is not a key).
 */
const MIN_CUT_KEY_CHARS = 4;

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
    /** What was held back, at the end of the body (a key's cut-off start redacted). */
    end(): Buffer {
      const rest = pending ?? EMPTY;
      pending = undefined;
      return redactCutKey(rest, compiled);
    },
  };
}

const EMPTY = Buffer.alloc(0);

/** A whole body with every rewrite applied: the same buffer when none applies (the usual case). */
export function rewriteBody(data: Buffer, compiled: CompiledRewrites): Buffer {
  return replaceEvery(data, compiled);
}

/**
 * A body cut off before its end (an error body past the router's limit): rewritten, and a key's form cut
 * at the end removed with the rest.
 */
export function rewriteCutBody(data: Buffer, compiled: CompiledRewrites): Buffer {
  const rewritten = replaceEvery(data, compiled);
  return rewritten.subarray(0, rewritten.byteLength - heldAtEnd(rewritten, compiled));
}

/** A text with every rewrite applied; header values are latin1 strings (one char per byte, as read). */
export function rewriteString(
  text: string,
  compiled: CompiledRewrites,
  encoding: "latin1" | "utf8" = "latin1",
): string {
  // A latin1 string's length is its byte count: one shorter than every text to find holds none (a provider's
  // usual headers: names and values shorter than a key), and is not copied into bytes to be searched.
  if (encoding === "latin1" && !mayRewriteLatin1(text, compiled)) return text;
  const bytes = Buffer.from(text, encoding);
  const rewritten = replaceEvery(bytes, compiled);
  return rewritten === bytes ? text : rewritten.toString(encoding);
}

/**
 * Whether a rewrite may apply to latin1 text (its chars are its bytes), asked of the text itself: a provider's
 * headers hold none, and copying each name and value into bytes to search them was most of answerHeaders'
 * cost, on every call (steady-state router profile, bench/results/2026-11-30-router-percall.md).
 */
function mayRewriteLatin1(text: string, compiled: CompiledRewrites): boolean {
  if (text.length < compiled.shortest) return false;
  for (const pair of compiled.pairs) if (text.includes(pair.findLatin1)) return true;
  for (const key of compiled.keys) if (key.forms.mayHoldText(text)) return true;
  return false;
}

/** The end of an answer: a key form cut off there, spelling at least a few of its characters, redacted. */
function redactCutKey(rest: Buffer, compiled: CompiledRewrites): Buffer {
  if (rest.byteLength === 0) return rest;
  for (const key of compiled.keys) {
    const cut = key.forms.cutAtEnd(rest);
    if (cut.chars >= MIN_CUT_KEY_CHARS) {
      return Buffer.concat([rest.subarray(0, rest.byteLength - cut.bytes), key.replace]);
    }
  }
  return rest;
}

function replaceEvery(data: Buffer, compiled: CompiledRewrites): Buffer {
  let result = data;
  for (const key of compiled.keys) {
    const spans = key.forms.spans(result);
    if (spans.length > 0) result = replaceSpans(result, spans, key.replace);
  }
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
  for (const key of compiled.keys) held = Math.max(held, key.forms.cutAtEnd(data).bytes);
  return held;
}

/** Rewrites as buffers, prepared once for many bodies. */
export interface CompiledRewrites {
  readonly rewrites: readonly Rewrite[];
  /** Texts found as written (and their bytes as latin1 text, to look for in latin1 strings). */
  readonly pairs: ReadonlyArray<{ find: Buffer; findLatin1: string; replace: Buffer }>;
  /** Credentials, found in every form. */
  readonly keys: ReadonlyArray<{ forms: KeyForms; replace: Buffer }>;
  /** Per byte value: 1 when some text has that byte before its last one (where a held-back prefix can end). */
  readonly prefixBytes: Uint8Array;
  /** The fewest bytes any text to find takes, in any form. */
  readonly shortest: number;
}

export function compileRewrites(rewrites: readonly Rewrite[]): CompiledRewrites {
  const usable = rewrites.filter((rewrite) => rewrite.find.length > 0);
  const pairs = usable
    .filter((rewrite) => !rewrite.everyForm)
    .map((rewrite) => {
      const find = Buffer.from(rewrite.find);
      return { find, findLatin1: find.toString("latin1"), replace: Buffer.from(rewrite.replace) };
    });
  const keys = usable
    .filter((rewrite) => rewrite.everyForm)
    .map((rewrite) => ({ forms: new KeyForms(rewrite.find), replace: Buffer.from(rewrite.replace) }));
  const prefixBytes = new Uint8Array(256);
  for (const { find } of pairs) for (let i = 0; i < find.byteLength - 1; i++) prefixBytes[find[i]!] = 1;
  for (const { forms } of keys) for (let i = 0; i < 256; i++) prefixBytes[i] ||= forms.innerBytes[i]!;
  const shortest = Math.min(
    ...pairs.map(({ find }) => find.byteLength),
    ...keys.map(({ forms }) => forms.shortest),
  );
  return { rewrites: usable, pairs, keys, prefixBytes, shortest };
}

/** Rewrites a whole (small) text at once. */
export function rewriteText(text: string, rewrites: readonly Rewrite[]): string {
  return rewriteString(text, compileRewrites(rewrites), "utf8");
}

/** `data` with each span replaced. */
function replaceSpans(data: Buffer, spans: readonly KeySpan[], replace: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (const span of spans) {
    parts.push(data.subarray(from, span.start), replace);
    from = span.end;
  }
  parts.push(data.subarray(from));
  return Buffer.concat(parts);
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
