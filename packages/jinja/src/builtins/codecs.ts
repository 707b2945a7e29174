import { TemplateRuntimeError } from "../errors.js";
import { typeError } from "../runtime/operators.js";
import { checkSizeCap, sizeCap } from "../runtime/state.js";
import { PyBytes, typeName } from "../runtime/values.js";
import { arg, type Method, table } from "./args.js";
import {
  byteOrderMark,
  decodeWide,
  encodeReason,
  encodeWide,
  readByteOrder,
  type WideCodec,
  wideCodec,
} from "./wide-codecs.js";

/*
 * str.encode and bytes.decode for the codecs a template can name: UTF-8, ASCII and Latin-1 here, UTF-16,
 * UTF-32 and Windows-1252 in wide-codecs.ts (with Python's aliases), and the error handlers strict, ignore,
 * replace, backslashreplace and xmlcharrefreplace (encoding only). Any other codec raises LookupError, as
 * an unknown one does in Python.
 */

type Codec = "utf-8" | "ascii" | "latin-1";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Python's codec lookup: case and punctuation insensitive, with the aliases of encodings/aliases.py. */
function lookupCodec(name: unknown): Codec | WideCodec {
  if (typeof name !== "string")
    throw typeError(`encode() argument 'encoding' must be str, not ${typeName(name)}`);
  const key = name
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, "_")
    .replace(/^_|_$/g, "");
  if (["utf_8", "utf8", "u8", "utf", "utf8_ucs2", "utf8_ucs4", "cp65001"].includes(key)) return "utf-8";
  if (
    [
      "ascii",
      "us_ascii",
      "646",
      "ansi_x3.4_1968",
      "ansi_x3_4_1968",
      "ansi_x3.4_1986",
      "cp367",
      "csascii",
      "ibm367",
      "iso646_us",
      "iso_646.irv_1991",
      "iso_ir_6",
      "us",
    ].includes(key)
  )
    return "ascii";
  if (
    [
      "latin_1",
      "latin1",
      "latin",
      "l1",
      "iso_8859_1",
      "iso8859_1",
      "8859",
      "cp819",
      "csisolatin1",
      "ibm819",
      "iso_8859_1_1987",
      "iso_ir_100",
    ].includes(key)
  )
    return "latin-1";
  const wide = wideCodec(key);
  if (wide !== undefined) return wide;
  throw new TemplateRuntimeError(`unknown encoding: ${name}`, "LookupError");
}

const limitOf = (codec: Codec): number => (codec === "ascii" ? 0x80 : codec === "latin-1" ? 0x100 : 0x110000);

function charRepr(cp: number): string {
  const hex = cp.toString(16);
  if (cp < 0x100) return `'\\x${hex.padStart(2, "0")}'`;
  if (cp < 0x10000) return `'\\u${hex.padStart(4, "0")}'`;
  return `'\\U${hex.padStart(8, "0")}'`;
}

function unknownHandler(errors: string): TemplateRuntimeError {
  return new TemplateRuntimeError(`unknown error handler name '${errors}'`, "LookupError");
}

function pushUtf8(out: number[], cp: number): void {
  if (cp < 0x80) out.push(cp);
  else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
  else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  else out.push(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
}

/** Python's str.encode(encoding, errors). */
export function encode(text: string, encoding: unknown = "utf-8", errors: unknown = "strict"): PyBytes {
  const found = lookupCodec(encoding);
  const handler = String(errors);
  if (typeof found !== "string") return encodeWideText(text, found, handler);
  const codec = found;
  const limit = limitOf(codec);
  // Text every code point of which encodes (nearly all): the platform's encoder, or one byte per unit.
  if (codec === "utf-8" && !LONE_SURROGATE.test(text)) {
    checkSizeCap(text.length);
    return new PyBytes(new TextEncoder().encode(text));
  }
  if (codec !== "utf-8" && (codec === "ascii" ? /^[\x00-\x7f]*$/ : /^[\x00-\xff]*$/).test(text)) {
    checkSizeCap(text.length);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return new PyBytes(out);
  }
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  // UTF-8 encodes everything but lone surrogates; the other two encode code points under their limit.
  const encodable = (cp: number) => (codec === "utf-8" ? cp < 0xd800 || cp > 0xdfff : cp < limit);
  const cap = sizeCap();
  const out: number[] = [];
  for (let i = 0; i < cps.length; i++) {
    if (out.length > cap) checkSizeCap(out.length);
    const cp = cps[i]!;
    if (encodable(cp)) {
      if (codec === "utf-8") pushUtf8(out, cp);
      else out.push(cp);
      continue;
    }
    let end = i + 1;
    while (end < cps.length && !encodable(cps[end]!)) end++;
    if (handler === "strict") {
      const where =
        end - i === 1
          ? `character ${charRepr(cp)} in position ${i}`
          : `characters in position ${i}-${end - 1}`;
      const reason = codec === "utf-8" ? "surrogates not allowed" : `ordinal not in range(${limit})`;
      throw new TemplateRuntimeError(
        `'${codec}' codec can't encode ${where}: ${reason}`,
        "UnicodeEncodeError",
      );
    }
    let replace: (c: number) => string;
    if (handler === "ignore") replace = () => "";
    else if (handler === "replace") replace = () => "?";
    else if (handler === "backslashreplace") replace = (c) => charRepr(c).slice(1, -1);
    else if (handler === "xmlcharrefreplace") replace = (c) => `&#${c};`;
    else throw unknownHandler(handler);
    // The replacements' total size is checked before any is made (a run can be millions of characters).
    let size = out.length;
    for (let j = i; j < end; j++) size += replace(cps[j]!).length;
    checkSizeCap(size);
    for (let j = i; j < end; j++) for (const c of replace(cps[j]!)) out.push(c.charCodeAt(0));
    i = end - 1;
  }
  return new PyBytes(Uint8Array.from(out));
}

/** The replacement text an encoding error handler gives for one refused code point. */
function encodeReplacement(handler: string): (cp: number) => string {
  if (handler === "ignore") return () => "";
  if (handler === "replace") return () => "?";
  if (handler === "backslashreplace") return (c) => charRepr(c).slice(1, -1);
  if (handler === "xmlcharrefreplace") return (c) => `&#${c};`;
  throw unknownHandler(handler);
}

function encodeError(
  codec: string,
  cps: number[],
  from: number,
  to: number,
  reason: string,
): TemplateRuntimeError {
  const where =
    to - from === 1
      ? `character ${charRepr(cps[from]!)} in position ${from}`
      : `characters in position ${from}-${to - 1}`;
  return new TemplateRuntimeError(`'${codec}' codec can't encode ${where}: ${reason}`, "UnicodeEncodeError");
}

/** str.encode for UTF-16, UTF-32 and Windows-1252: the charmap codec reports runs, the UTF ones each character. */
function encodeWideText(text: string, codec: WideCodec, handler: string): PyBytes {
  const cps = Array.from(text, (c) => c.codePointAt(0)!);
  const out: number[] = codec.bom ? byteOrderMark(codec) : [];
  const cap = sizeCap();
  for (let i = 0; i < cps.length; i++) {
    if (out.length > cap) checkSizeCap(out.length);
    if (encodeWide(codec, cps[i]!, out)) continue;
    let end = i + 1;
    if (codec.unit === 1) {
      while (end < cps.length && !encodeWide(codec, cps[end]!, [])) end++;
    }
    if (handler === "strict") throw encodeError(codec.name, cps, i, end, encodeReason(codec));
    const replace = encodeReplacement(handler);
    let size = out.length;
    for (let j = i; j < end; j++) size += replace(cps[j]!).length * codec.unit;
    checkSizeCap(size);
    for (let j = i; j < end; j++) for (const c of replace(cps[j]!)) encodeWide(codec, c.charCodeAt(0), out);
    i = end - 1;
  }
  return new PyBytes(Uint8Array.from(out));
}

/** bytes.decode for UTF-16, UTF-32 and Windows-1252. */
function decodeWideBytes(bytes: Uint8Array, codec: WideCodec, handler: string): string {
  const order = codec.bom ? readByteOrder(codec, bytes) : { littleEndian: codec.littleEndian, skip: 0 };
  let out = "";
  for (let i = order.skip; i < bytes.length; ) {
    const step = decodeWide(codec, bytes, i, order.littleEndian);
    if ("cp" in step) {
      out += String.fromCodePoint(step.cp);
      i += step.length;
      continue;
    }
    if (handler === "strict") {
      const where =
        step.bad === 1
          ? `byte 0x${bytes[i]!.toString(16).padStart(2, "0")} in position ${i}`
          : `bytes in position ${i}-${i + step.bad - 1}`;
      throw new TemplateRuntimeError(
        `'${codec.name}' codec can't decode ${where}: ${step.reason}`,
        "UnicodeDecodeError",
      );
    }
    if (handler === "replace") out += "\ufffd";
    else if (handler === "backslashreplace") {
      for (const b of bytes.subarray(i, i + step.bad)) out += `\\x${b.toString(16).padStart(2, "0")}`;
    } else if (handler !== "ignore") throw unknownHandler(handler);
    i += step.bad;
  }
  return out;
}

/** Length of the valid UTF-8 sequence at `i` (CPython's rules), or the negated length of the bad prefix. */
function utf8Sequence(
  bytes: Uint8Array,
  i: number,
): { length: number; cp: number } | { bad: number; reason: string } {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return { length: 1, cp: b0 };
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b0 >= 0xc2 && b0 <= 0xdf) need = 1;
  else if (b0 >= 0xe0 && b0 <= 0xef) {
    need = 2;
    if (b0 === 0xe0) lo = 0xa0;
    if (b0 === 0xed) hi = 0x9f;
  } else if (b0 >= 0xf0 && b0 <= 0xf4) {
    need = 3;
    if (b0 === 0xf0) lo = 0x90;
    if (b0 === 0xf4) hi = 0x8f;
  } else return { bad: 1, reason: "invalid start byte" };
  let cp = b0 & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
  for (let k = 1; k <= need; k++) {
    if (i + k >= bytes.length) return { bad: k, reason: "unexpected end of data" };
    const b = bytes[i + k]!;
    if (b < (k === 1 ? lo : 0x80) || b > (k === 1 ? hi : 0xbf))
      return { bad: k, reason: "invalid continuation byte" };
    cp = (cp << 6) | (b & 63);
  }
  return { length: need + 1, cp };
}

/** Python's bytes.decode(encoding, errors). */
export function decode(bytes: Uint8Array, encoding: unknown = "utf-8", errors: unknown = "strict"): string {
  const found = lookupCodec(encoding);
  const handler = String(errors);
  checkSizeCap(bytes.length);
  if (typeof found !== "string") return decodeWideBytes(bytes, found, handler);
  const codec = found;
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    let bad: number;
    let reason: string;
    if (codec === "utf-8") {
      const seq = utf8Sequence(bytes, i);
      if ("cp" in seq) {
        out += String.fromCodePoint(seq.cp);
        i += seq.length;
        continue;
      }
      ({ bad, reason } = seq);
    } else if (codec === "latin-1" || bytes[i]! < 0x80) {
      out += String.fromCharCode(bytes[i++]!);
      continue;
    } else {
      bad = 1;
      reason = "ordinal not in range(128)";
    }
    if (handler === "strict") {
      const where =
        bad === 1
          ? `byte 0x${bytes[i]!.toString(16).padStart(2, "0")} in position ${i}`
          : `bytes in position ${i}-${i + bad - 1}`;
      throw new TemplateRuntimeError(
        `'${codec}' codec can't decode ${where}: ${reason}`,
        "UnicodeDecodeError",
      );
    }
    if (handler === "replace") out += "\ufffd";
    else if (handler === "backslashreplace") {
      for (const b of bytes.subarray(i, i + bad)) out += `\\x${b.toString(16).padStart(2, "0")}`;
    } else if (handler !== "ignore") throw unknownHandler(handler);
    i += bad;
  }
  return out;
}

/** The bytes methods templates can call. */
export const BYTES_METHODS: Record<string, Method> = table<Method>({
  decode: (self: PyBytes, a, k) =>
    decode(self.bytes, arg(a, k, 0, "encoding", "utf-8"), arg(a, k, 1, "errors", "strict")),
  hex: (self: PyBytes) => {
    checkSizeCap(self.bytes.length * 2);
    return Array.from(self.bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  },
});
