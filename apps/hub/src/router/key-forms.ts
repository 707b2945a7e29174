/**
 * Finds a provider key in bytes in every form a provider may echo it: as is, in any letter case, with any of
 * its characters JSON-escaped (`\u0073`, `\/`) or percent-encoded (`%73`), and base64-encoded (standard or
 * URL-safe alphabet, at any of the three alignments it can have inside a longer base64 text, such as a Basic
 * credential or `base64("Bearer <key>")`).
 */

const BACKSLASH = 0x5c;
const PERCENT = 0x25;
const LOWER_U = 0x75;
const SLASH = 0x2f;

/** A found form: bytes [start, end) of the data. */
export interface KeySpan {
  start: number;
  end: number;
}

/** How a form of the key runs from a position: `end` when whole, or how far it got before the data ran out. */
type Attempt = { kind: "whole"; end: number } | { kind: "cut"; chars: number } | { kind: "none" };

/** The other case of an ASCII letter, else the byte itself. */
function otherCase(byte: number): number {
  if (byte >= 0x41 && byte <= 0x5a) return byte + 0x20;
  if (byte >= 0x61 && byte <= 0x7a) return byte - 0x20;
  return byte;
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}

/**
 * The parts of the key's base64 that do not depend on the bytes around it: for each alignment (0, 1 or 2
 * bytes before the key within its 3-byte group), the characters made only of the key's bits.
 */
function base64Needles(key: Buffer): Buffer[] {
  const needles = new Set<string>();
  for (let before = 0; before < 3; before++) {
    const padded = Buffer.concat([Buffer.alloc(before), key]);
    const encoded = padded.toString("base64");
    // Characters mixing pad bits: none, 2 (1 byte before: 8 pad bits over chars 0 and 1), 3 (2 bytes).
    const from = [0, 2, 3][before]!;
    // Characters of the last, partial group depend on the bytes after the key.
    const to = Math.floor(padded.byteLength / 3) * 4;
    const stable = encoded.slice(from, to);
    if (stable.length >= 8) {
      needles.add(stable);
      needles.add(stable.replace(/\+/g, "-").replace(/\//g, "_"));
    }
  }
  return [...needles].map((needle) => Buffer.from(needle, "latin1"));
}

export class KeyForms {
  private readonly key: Buffer;
  private readonly base64: Buffer[];
  /** Bytes a form of the key may start with (the first character in either case, `\`, `%`). */
  private readonly starts: number[];
  /** The longest any form of the key can be (every character `\uXXXX`). */
  private readonly longest: number;
  /** Per byte value: 1 when a form of the key can have that byte before its last one. */
  readonly innerBytes = new Uint8Array(256);
  /** The fewest bytes any form of the key takes (escapes only lengthen it): shorter data holds none. */
  readonly shortest: number;

  constructor(secret: string) {
    this.key = Buffer.from(secret, "utf8");
    this.base64 = base64Needles(this.key);
    const first = this.key[0]!;
    this.starts = [...new Set([first, otherCase(first), BACKSLASH, PERCENT])];
    this.longest = this.key.byteLength * 6;
    this.shortest = Math.min(this.key.byteLength, ...this.base64.map((needle) => needle.byteLength));
    const inner = this.innerBytes;
    for (const byte of this.key) inner[byte] = inner[otherCase(byte)] = 1;
    for (const byte of Buffer.from("\\u%/0123456789abcdefABCDEF", "latin1")) inner[byte] = 1;
    for (const needle of this.base64) for (const byte of needle) inner[byte] = 1;
    this.mayHold = this.key.byteLength >= 2 ? mayHoldPattern(this.key, this.base64) : undefined;
  }

  /**
   * Text (`data` as latin1, one char per byte) that holds every form of the key, and more: a form's first two
   * characters, each in any of its forms (either case, `\uXXXX`, `%XX`, `\/`), or a base64 needle. One
   * regular expression over the chunk finds that most chunks hold none; only those that match are searched
   * exactly. The exact search runs an `indexOf` per start byte and per occurrence of it, and sorts them:
   * ~4% of the hub's CPU per streamed call at zero latency, one search per event (own provider profile,
   * bench/results/2026-11-30-router-percall.md).
   */
  private readonly mayHold: RegExp | undefined;

  /** Whether latin1 text (one char per byte) may hold a form of the key: false means it holds none. */
  mayHoldText(text: string): boolean {
    return this.mayHold === undefined || this.mayHold.test(text);
  }

  /** Every form of the key in `data`, in order, not overlapping. */
  spans(data: Buffer): KeySpan[] {
    if (!this.mayHoldText(data.toString("latin1"))) return [];
    const found: KeySpan[] = [];
    for (const start of this.candidates(data, 0)) {
      const attempt = this.attemptAt(data, start);
      if (attempt.kind === "whole") found.push({ start, end: attempt.end });
    }
    for (const needle of this.base64) {
      for (let at = data.indexOf(needle); at !== -1; at = data.indexOf(needle, at + 1)) {
        found.push({ start: at, end: at + needle.byteLength });
      }
    }
    if (found.length < 2) return found;
    found.sort((a, b) => a.start - b.start || b.end - a.end);
    const merged: KeySpan[] = [found[0]!];
    for (const span of found.slice(1)) {
      const last = merged[merged.length - 1]!;
      if (span.start < last.end) last.end = Math.max(last.end, span.end);
      else merged.push(span);
    }
    return merged;
  }

  /**
   * How many bytes at the end of `data` may begin a form of the key (to hold until more data shows), and
   * how many of the key's characters they already hold.
   */
  cutAtEnd(data: Buffer): { bytes: number; chars: number } {
    let held = { bytes: 0, chars: 0 };
    const from = Math.max(0, data.byteLength - this.longest);
    for (const start of this.candidates(data, from)) {
      const attempt = this.attemptAt(data, start);
      if (attempt.kind === "cut") {
        held = { bytes: data.byteLength - start, chars: attempt.chars };
        break;
      }
    }
    for (const needle of this.base64) {
      const bytes = partialAtEnd(data, needle);
      if (bytes > held.bytes) held = { bytes, chars: Math.floor((bytes * 3) / 4) };
    }
    return held;
  }

  /** Positions from `from` where a form of the key may start, in order. */
  private candidates(data: Buffer, from: number): number[] {
    const positions: number[] = [];
    for (const byte of this.starts) {
      for (let at = data.indexOf(byte, from); at !== -1; at = data.indexOf(byte, at + 1)) positions.push(at);
    }
    return this.starts.length > 1 ? positions.sort((a, b) => a - b) : positions;
  }

  /** Whether the key, each character in any of its forms, runs from `start`. */
  private attemptAt(data: Buffer, start: number): Attempt {
    const { key } = this;
    const end = data.byteLength;
    let at = start;
    for (let index = 0; index < key.byteLength; index++) {
      if (at >= end) return { kind: "cut", chars: index };
      const want = key[index]!;
      const byte = data[at]!;
      if (byte === want || byte === otherCase(want)) {
        at++;
        continue;
      }
      let digits = 0;
      let prefix = 0;
      if (byte === BACKSLASH) {
        if (at + 1 >= end) return { kind: "cut", chars: index };
        const next = data[at + 1]!;
        if (next === SLASH && want === SLASH) {
          at += 2;
          continue;
        }
        if (next !== LOWER_U) return { kind: "none" };
        digits = 4;
        prefix = 2;
      } else if (byte === PERCENT) {
        digits = 2;
        prefix = 1;
      } else {
        return { kind: "none" };
      }
      let value = 0;
      for (let digit = 0; digit < digits; digit++) {
        const position = at + prefix + digit;
        if (position >= end) return { kind: "cut", chars: index };
        const hex = hexValue(data[position]!);
        if (hex === -1) return { kind: "none" };
        value = value * 16 + hex;
      }
      if (value !== want && value !== otherCase(want)) return { kind: "none" };
      at += prefix + digits;
    }
    return { kind: "whole", end: at };
  }
}

/**
 * A pattern every form of the key matches (KeyForms.mayHold): its first two characters, each as itself in
 * either case, `\u00XX`, `%XX` (hex digits in either case) or, for `/`, `\/`; or one of the base64 needles.
 * Case-insensitive, so it matches more than the forms do: it only decides which data are searched exactly.
 */
function mayHoldPattern(key: Buffer, base64: readonly Buffer[]): RegExp {
  const charForms = (byte: number) => {
    const forms = byte === SLASH ? ["\\\\/"] : [];
    for (const each of new Set([byte, otherCase(byte)])) {
      const hex = each.toString(16).padStart(2, "0");
      forms.push(`\\x${hex}`, `\\\\u00${hex}`, `%${hex}`);
    }
    return `(?:${forms.join("|")})`;
  };
  const literal = (needle: Buffer) => needle.toString("latin1").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp([charForms(key[0]!) + charForms(key[1]!), ...base64.map(literal)].join("|"), "i");
}

/** How many bytes at the end of `data` are the start of `needle` (at most its length - 1). */
export function partialAtEnd(data: Buffer, needle: Buffer): number {
  const longest = Math.min(needle.byteLength - 1, data.byteLength);
  for (let length = longest; length > 0; length--) {
    const from = data.byteLength - length;
    if (data[from] !== needle[0]) continue;
    // Compared in place: no buffer views allocated per candidate.
    if (needle.compare(data, from, data.byteLength, 0, length) === 0) return length;
  }
  return 0;
}
