import { EscapeError, lookupUnicodeName } from "./unicode-names.js";

export { EscapeError };

const SIMPLE: Record<string, string> = {
  "\n": "",
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

/** The escapes Python's "unicode-escape" codec decodes: octal, \x, \u, \U, \N{...} and the one-character ones. */
const ESCAPE =
  /\\([0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N(?:\{[^}]+\})?|[\n\\'"abfnrtv])/y;

const TRUNCATED: Record<string, string> = {
  x: "truncated \\xXX escape",
  u: "truncated \\uXXXX escape",
  U: "truncated \\UXXXXXXXX escape",
};

/** Decodes a string literal body the way Python's "unicode-escape" codec does (unknown escapes stay). */
export function unescapePython(body: string): string {
  let at = body.indexOf("\\");
  if (at < 0) return body;
  let out = "";
  let from = 0;
  while (at >= 0) {
    ESCAPE.lastIndex = at;
    const m = ESCAPE.exec(body);
    if (m) {
      const sequence = m[1]!;
      let decoded = SIMPLE[sequence];
      if (sequence[0] === "N") {
        if (sequence.length === 1) throw new EscapeError("malformed \\N character escape");
        decoded = lookupUnicodeName(sequence.slice(2, -1));
        if (decoded === undefined) throw new EscapeError("unknown Unicode character name");
      } else if (decoded === undefined) {
        const code =
          sequence[0]! <= "7" ? Number.parseInt(sequence, 8) : Number.parseInt(sequence.slice(1), 16);
        if (code > 0x10ffff) throw new EscapeError("illegal Unicode character");
        decoded = String.fromCodePoint(code);
      }
      out += body.slice(from, at) + decoded;
      from = at = ESCAPE.lastIndex;
    } else {
      // \x, \u and \U need all their hex digits (Python's codec refuses the literal, Jinja2 with it).
      const truncated = TRUNCATED[body[at + 1] ?? ""];
      if (truncated !== undefined) throw new EscapeError(truncated);
      at++;
    }
    at = body.indexOf("\\", at);
  }
  return out + body.slice(from);
}
