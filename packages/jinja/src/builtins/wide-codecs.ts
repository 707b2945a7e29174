/**
 * The codecs beyond UTF-8, ASCII and Latin-1 that templates name: UTF-16 and UTF-32 (with a BOM and
 * little-endian, as Python writes them on every platform it runs on here, or with an explicit byte order)
 * and Windows-1252 (Python's 'charmap' codec, by its messages). Each codec turns one code point into bytes
 * (or refuses it) and reads one code point from bytes (or says how many bytes are bad and why, in CPython's
 * words); codecs.ts runs the error handlers around them.
 */

export interface WideCodec {
  /** The name Python's messages use. */
  name: string;
  /** Bytes per code unit: 2 (UTF-16), 4 (UTF-32), 1 (Windows-1252). */
  unit: 1 | 2 | 4;
  littleEndian: boolean;
  /** UTF-16/UTF-32 without a byte order: BOM first when encoding, BOM read (or little-endian) when decoding. */
  bom: boolean;
}

const ALIASES: Record<string, WideCodec> = {};
function codec(names: string[], name: string, unit: 1 | 2 | 4, littleEndian: boolean, bom: boolean): void {
  for (const alias of names) ALIASES[alias] = { name, unit, littleEndian, bom };
}
codec(["utf_16", "utf16", "u16"], "utf-16", 2, true, true);
codec(["utf_16_le", "utf_16le", "unicodelittleunmarked"], "utf-16-le", 2, true, false);
codec(["utf_16_be", "utf_16be", "unicodebigunmarked"], "utf-16-be", 2, false, false);
codec(["utf_32", "utf32", "u32"], "utf-32", 4, true, true);
codec(["utf_32_le", "utf_32le"], "utf-32-le", 4, true, false);
codec(["utf_32_be", "utf_32be"], "utf-32-be", 4, false, false);
codec(["cp1252", "windows_1252", "1252"], "charmap", 1, true, false);

/** The codec a normalized name (encodings.normalize_encoding) stands for, if it is one of these. */
export function wideCodec(key: string): WideCodec | undefined {
  return Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
}

/** Windows-1252's 0x80-0x9f (0: undefined); the rest is Latin-1. */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0, 0x17d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0, 0x17e,
  0x178,
];

function cp1252Byte(cp: number): number | null {
  if (cp < 0x80 || (cp >= 0xa0 && cp < 0x100)) return cp;
  const at = CP1252_HIGH.indexOf(cp);
  return cp !== 0 && at >= 0 ? 0x80 + at : null;
}

function pushUnit(out: number[], value: number, size: 2 | 4, littleEndian: boolean): void {
  for (let k = 0; k < size; k++) {
    const shift = 8 * (littleEndian ? k : size - 1 - k);
    out.push((value >>> shift) & 0xff);
  }
}

/** Appends `cp`'s bytes; false when the codec cannot encode it (a lone surrogate, or not in the charmap). */
export function encodeWide(codec: WideCodec, cp: number, out: number[]): boolean {
  if (codec.unit === 1) {
    const byte = cp1252Byte(cp);
    if (byte === null) return false;
    out.push(byte);
    return true;
  }
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  if (codec.unit === 4 || cp < 0x10000) pushUnit(out, cp, codec.unit, codec.littleEndian);
  else {
    pushUnit(out, 0xd800 + ((cp - 0x10000) >> 10), 2, codec.littleEndian);
    pushUnit(out, 0xdc00 + ((cp - 0x10000) & 0x3ff), 2, codec.littleEndian);
  }
  return true;
}

/** Why the charmap and UTF codecs refuse a character, in Python's words. */
export function encodeReason(codec: WideCodec): string {
  return codec.unit === 1 ? "character maps to <undefined>" : "surrogates not allowed";
}

/** The BOM that `bom` codecs write. */
export function byteOrderMark(codec: WideCodec): number[] {
  return codec.unit === 2 ? [0xff, 0xfe] : [0xff, 0xfe, 0, 0];
}

/** For a BOM codec: the byte order the data announces (little-endian without a BOM) and the BOM's length. */
export function readByteOrder(codec: WideCodec, bytes: Uint8Array): { littleEndian: boolean; skip: number } {
  const b = bytes;
  if (codec.unit === 2 && b.length >= 2) {
    if (b[0] === 0xff && b[1] === 0xfe) return { littleEndian: true, skip: 2 };
    if (b[0] === 0xfe && b[1] === 0xff) return { littleEndian: false, skip: 2 };
  }
  if (codec.unit === 4 && b.length >= 4) {
    if (b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) return { littleEndian: true, skip: 4 };
    if (b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff) return { littleEndian: false, skip: 4 };
  }
  return { littleEndian: true, skip: 0 };
}

function readUnit(bytes: Uint8Array, i: number, size: number, littleEndian: boolean): number {
  let value = 0;
  for (let k = 0; k < size; k++) value = value * 256 + bytes[i + (littleEndian ? size - 1 - k : k)]!;
  return value;
}

/** One code point at `i`, or the number of bad bytes there and CPython's reason. */
export function decodeWide(
  codec: WideCodec,
  bytes: Uint8Array,
  i: number,
  littleEndian: boolean,
): { cp: number; length: number } | { bad: number; reason: string } {
  const left = bytes.length - i;
  if (codec.unit === 1) {
    const b = bytes[i]!;
    const cp = b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80]! : b;
    return cp === 0 && b !== 0 ? { bad: 1, reason: "character maps to <undefined>" } : { cp, length: 1 };
  }
  if (left < codec.unit) return { bad: left, reason: "truncated data" };
  const u = readUnit(bytes, i, codec.unit, littleEndian);
  if (codec.unit === 4) {
    if (u > 0x10ffff) return { bad: 4, reason: "code point not in range(0x110000)" };
    if (u >= 0xd800 && u <= 0xdfff)
      return { bad: 4, reason: "code point in surrogate code point range(0xd800, 0xe000)" };
    return { cp: u, length: 4 };
  }
  if (u < 0xd800 || u > 0xdfff) return { cp: u, length: 2 };
  if (u >= 0xdc00) return { bad: 2, reason: "illegal encoding" };
  if (left < 4) return { bad: left, reason: "unexpected end of data" };
  const low = readUnit(bytes, i + 2, 2, littleEndian);
  if (low < 0xdc00 || low > 0xdfff) return { bad: 2, reason: "illegal UTF-16 surrogate" };
  return { cp: 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00), length: 4 };
}
