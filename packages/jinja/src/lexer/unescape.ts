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

/** Decodes a string literal body the way Python's "unicode-escape" codec does (unknown escapes stay). */
export function unescapePython(body: string): string {
  if (body.indexOf("\\") < 0) return body;
  let out = "";
  let i = 0;
  while (i < body.length) {
    const ch = body[i]!;
    if (ch !== "\\" || i + 1 >= body.length) {
      out += ch;
      i++;
      continue;
    }
    const next = body[i + 1]!;
    const simple = SIMPLE[next];
    if (simple !== undefined && Object.hasOwn(SIMPLE, next)) {
      out += simple;
      i += 2;
      continue;
    }
    if (next >= "0" && next <= "7") {
      let j = i + 1;
      while (j < body.length && j < i + 4 && body[j]! >= "0" && body[j]! <= "7") j++;
      out += String.fromCodePoint(Number.parseInt(body.slice(i + 1, j), 8));
      i = j;
      continue;
    }
    const width = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (width > 0) {
      const hex = body.slice(i + 2, i + 2 + width);
      if (hex.length === width && /^[0-9a-fA-F]+$/.test(hex)) {
        const code = Number.parseInt(hex, 16);
        if (code <= 0x10ffff) {
          out += String.fromCodePoint(code);
          i += 2 + width;
          continue;
        }
      }
    }
    out += ch;
    i++;
  }
  return out;
}
