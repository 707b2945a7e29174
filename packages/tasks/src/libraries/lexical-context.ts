import type { CodeLanguage } from "../quoting/index.js";

/**
 * Where a snippet template's static text leaves the reader: in plain code, or inside a string or comment.
 * The tagged templates accept an interpolation only in plain code, because a literal written inside another
 * string or a comment is no longer a literal (a newline in a quoted shell word ends a comment; a Python
 * literal inside an f-string is just text).
 */
export type LexicalState = "code" | "string" | "comment";

interface Scanner {
  state: LexicalState;
  /** The closing delimiter of the string being read. */
  closer: string;
  escapes: boolean;
}

export function startScanner(): Scanner {
  return { state: "code", closer: "", escapes: false };
}

const OPENERS: Record<CodeLanguage, ReadonlyArray<{ open: string; close: string; escapes: boolean }>> = {
  python: [
    { open: '"""', close: '"""', escapes: true },
    { open: "'''", close: "'''", escapes: true },
    { open: '"', close: '"', escapes: true },
    { open: "'", close: "'", escapes: true },
  ],
  js: [
    { open: '"', close: '"', escapes: true },
    { open: "'", close: "'", escapes: true },
    { open: "`", close: "`", escapes: true },
    { open: "/*", close: "*/", escapes: false },
  ],
  sh: [
    { open: "'", close: "'", escapes: false },
    { open: '"', close: '"', escapes: true },
    { open: "`", close: "`", escapes: true },
  ],
};

function startsLineComment(language: CodeLanguage, text: string, i: number): boolean {
  if (language === "js") return text.startsWith("//", i);
  if (text[i] !== "#") return false;
  // In shell, # starts a comment only at the start of a word.
  return language === "python" || i === 0 || /[\s;&|(]/.test(text[i - 1] ?? "");
}

/** Advances the scanner over a piece of static template text. */
export function scan(language: CodeLanguage, scanner: Scanner, text: string): Scanner {
  let { state, closer, escapes } = scanner;
  let i = 0;
  while (i < text.length) {
    if (state === "comment") {
      if (text[i] === "\n") state = "code";
      i += 1;
    } else if (state === "string") {
      if (escapes && text[i] === "\\") i += 2;
      else if (text.startsWith(closer, i)) {
        i += closer.length;
        state = "code";
        // "/*" is tracked as a string-like span but is a comment; either way it is not code.
      } else i += 1;
    } else if (language !== "python" && text[i] === "\\") {
      i += 2;
    } else if (startsLineComment(language, text, i)) {
      state = "comment";
      i += 1;
    } else {
      const opener = OPENERS[language].find((o) => text.startsWith(o.open, i));
      if (opener) {
        state = "string";
        closer = opener.close;
        escapes = opener.escapes;
        i += opener.open.length;
      } else i += 1;
    }
  }
  return { state, closer, escapes };
}
