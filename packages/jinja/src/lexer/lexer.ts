import type { SourceText } from "./source.js";
import type { Token, TokenType } from "./token.js";
import { EscapeError, unescapePython } from "./unescape.js";

export interface LexerOptions {
  trimBlocks: boolean;
  lstripBlocks: boolean;
}

const WHITESPACE = /\s/;
const ONLY_WHITESPACE = /^\s+$/;
const STRING = /'([^'\\]*(?:\\[\s\S][^'\\]*)*)'|"([^"\\]*(?:\\[\s\S][^"\\]*)*)"/y;
const FLOAT = /(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?[eE][+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/y;
/** Jinja's integer_re: binary, octal and hex prefixes; no leading zeros on a decimal. */
const INTEGER = /0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0[xX](?:_?[\da-fA-F])+|[1-9](?:_?\d)*|0(?:_?0)*/y;
/** Operator at `pos` as an interned literal (so later comparisons and lookups stay fast), or null. */
function operatorAt(src: string, pos: number): string | null {
  const c = src[pos];
  const twice = src[pos + 1] === c;
  switch (c) {
    case "/":
      return twice ? "//" : "/";
    case "*":
      return twice ? "**" : "*";
    case "=":
      return twice ? "==" : "=";
    case "!":
      return src[pos + 1] === "=" ? "!=" : null;
    case "<":
      return src[pos + 1] === "=" ? "<=" : "<";
    case ">":
      return src[pos + 1] === "=" ? ">=" : ">";
    case "+":
    case "-":
    case "%":
    case "~":
    case "[":
    case "]":
    case "(":
    case ")":
    case "{":
    case "}":
    case ".":
    case ":":
    case "|":
    case ",":
    case ";":
      return c;
    default:
      return null;
  }
}
const RAW_BEGIN = /\{%([-+]?)\s*raw\s*(-?)%\}/y;
const RAW_END = /\{%([-+]?)\s*endraw\s*([-+]?)%\}/g;

const isNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isNamePart = (c: number) => isNameStart(c) || (c >= 48 && c <= 57);

const isSpace = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && WHITESPACE.test(text[i]!));
};

function skipWhitespace(text: string, pos: number): number {
  while (pos < text.length && isSpace(text, pos)) pos++;
  return pos;
}

/** Splits a normalized template source into tokens, applying Jinja2's whitespace control rules. */
export function tokenize(source: SourceText, options: LexerOptions): Token[] {
  const src = source.text;
  const tokens: Token[] = [];
  const push = (type: TokenType, value: string, pos: number) => tokens.push({ type, value, pos });
  let pos = 0;
  let lineStarting = true;

  /** lstrip_blocks: drop indentation between the last newline and a block/comment tag. */
  const leadingText = (text: string, sign: string, isVariable: boolean): string => {
    // trimEnd strips exactly what isSpace accepts (JS whitespace and line terminators).
    if (sign === "-") return text.trimEnd();
    if (sign === "+" || !options.lstripBlocks || isVariable) return text;
    const lineStart = text.lastIndexOf("\n") + 1;
    if ((lineStart > 0 || lineStarting) && ONLY_WHITESPACE.test(text.slice(lineStart))) {
      return text.slice(0, lineStart);
    }
    return text;
  };

  /** What follows a closing delimiter: `-` eats all whitespace, trim_blocks eats one newline. */
  const afterTagEnd = (end: number, sign: string, trims: boolean): number => {
    if (sign === "-") return skipWhitespace(src, end);
    if (sign !== "+" && trims && options.trimBlocks && src[end] === "\n") return end + 1;
    return end;
  };

  while (pos < src.length) {
    let start = src.indexOf("{", pos);
    while (start >= 0) {
      const c = src[start + 1];
      if (c === "{" || c === "%" || c === "#") break;
      start = src.indexOf("{", start + 1);
    }
    if (start < 0) {
      push("data", src.slice(pos), pos);
      break;
    }
    const kind = src[start + 1]!;
    const signChar = src[start + 2];
    const sign = signChar === "-" || signChar === "+" ? signChar : "";
    const text = leadingText(src.slice(pos, start), sign, kind === "{");
    if (text) push("data", text, pos);

    if (kind === "#") {
      const close = src.indexOf("#}", start + 2 + sign.length);
      if (close < 0) throw source.syntaxError("Missing end of comment tag", start);
      const endSign = src[close - 1] === "-" || src[close - 1] === "+" ? src[close - 1]! : "";
      pos = afterTagEnd(close + 2, endSign, true);
      lineStarting = src[pos - 1] === "\n";
      continue;
    }

    if (kind === "%") {
      RAW_BEGIN.lastIndex = start;
      const raw = RAW_BEGIN.exec(src);
      if (raw) {
        let bodyStart = start + raw[0].length;
        if (raw[2] === "-") bodyStart = skipWhitespace(src, bodyStart);
        RAW_END.lastIndex = bodyStart;
        const end = RAW_END.exec(src);
        if (!end) throw source.syntaxError("Missing end of raw directive", start, { openBlock: "raw" });
        lineStarting = false;
        const body = leadingText(src.slice(bodyStart, end.index), end[1] ?? "", false);
        if (body) push("data", body, bodyStart);
        pos = afterTagEnd(end.index + end[0].length, end[2] ?? "", true);
        lineStarting = src[pos - 1] === "\n";
        continue;
      }
    }

    const isBlock = kind === "%";
    push(isBlock ? "block_begin" : "var_begin", kind, start);
    pos = start + 2 + sign.length;
    const stack: string[] = [];
    for (;;) {
      pos = skipWhitespace(src, pos);
      if (pos >= src.length) {
        push("eof", "", pos);
        return tokens;
      }
      if (stack.length === 0) {
        const c = src[pos]!;
        const endSign = c === "-" || c === "+" ? c : "";
        const at = pos + endSign.length;
        if (isBlock ? src.startsWith("%}", at) : src.startsWith("}}", at) && endSign !== "+") {
          push(isBlock ? "block_end" : "var_end", "", pos);
          pos = afterTagEnd(at + 2, endSign, isBlock);
          lineStarting = src[pos - 1] === "\n";
          break;
        }
      }
      const ch = src[pos]!;
      if (ch === "'" || ch === '"') {
        STRING.lastIndex = pos;
        const m = STRING.exec(src);
        if (!m) throw source.syntaxError(`unexpected char ${JSON.stringify(ch)}`, pos);
        let text: string;
        try {
          text = unescapePython(m[1] ?? m[2] ?? "");
        } catch (error) {
          // Jinja2 reports what Python's codec says after its last colon ("unknown Unicode character name").
          if (!(error instanceof EscapeError)) throw error;
          throw source.syntaxError(error.message, pos);
        }
        push("string", text, pos);
        pos += m[0].length;
        continue;
      }
      if (ch >= "0" && ch <= "9") {
        FLOAT.lastIndex = pos;
        // Jinja's float rule never starts right after a dot: `m.0.1` is two item lookups, not `m` `.` `0.1`.
        const f = src[pos - 1] === "." ? null : FLOAT.exec(src);
        if (f) {
          push("float", f[0].replace(/_/g, ""), pos);
          pos += f[0].length;
          continue;
        }
        INTEGER.lastIndex = pos;
        const n = INTEGER.exec(src)!;
        push("integer", n[0].replace(/_/g, ""), pos);
        pos += n[0].length;
        continue;
      }
      const code = src.charCodeAt(pos);
      if (isNameStart(code)) {
        let end = pos + 1;
        while (end < src.length && isNamePart(src.charCodeAt(end))) end++;
        push("name", src.slice(pos, end), pos);
        pos = end;
        continue;
      }
      const op = operatorAt(src, pos);
      if (op === null) throw source.syntaxError(`unexpected char ${JSON.stringify(ch)}`, pos);
      if (op === "(") stack.push(")");
      else if (op === "[") stack.push("]");
      else if (op === "{") stack.push("}");
      else if (op === ")" || op === "]" || op === "}") {
        const expected = stack.pop();
        if (expected === undefined) throw source.syntaxError(`unexpected '${op}'`, pos);
        if (expected !== op) throw source.syntaxError(`unexpected '${op}', expected '${expected}'`, pos);
      }
      push("op", op, pos);
      pos += op.length;
    }
  }
  push("eof", "", src.length);
  return tokens;
}
