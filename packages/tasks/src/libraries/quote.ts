/**
 * Tagged templates for library snippets, built on the one quoting module per language (../quoting/).
 *
 * Every value that comes from a model record (id, example texts, class names, file names) is untrusted:
 * it may hold quotes, backslashes, `$(...)`, backticks, newlines or any Unicode. Snippet code is written
 * with the `py`, `js` and `sh` tags: the static parts of the template are our code, and every interpolated
 * plain value is turned into a string literal of the target language. Only a `Code` value (made by these
 * same tags or by the identifier validators below) is inserted verbatim, so no snippet can concatenate
 * unquoted text into generated code.
 */

import { TasksError } from "../errors.js";
import {
  type CodeLanguage,
  isPythonIdentifier,
  jsStringLiteral,
  pythonStringLiteral,
  shellWord,
} from "../quoting/index.js";
import { scan, startScanner } from "./lexical-context.js";

export { type CodeLanguage, isPythonIdentifier, jsStringLiteral, pythonStringLiteral, shellWord };

const CODE_BRAND: unique symbol = Symbol("library-snippet-code");

/** A fragment of generated code in one language. Only this module can make one. */
export interface Code<L extends CodeLanguage = CodeLanguage> {
  readonly [CODE_BRAND]: true;
  readonly language: L;
  readonly text: string;
}

function makeCode<L extends CodeLanguage>(language: L, text: string): Code<L> {
  return Object.freeze({ [CODE_BRAND]: true as const, language, text });
}

export function isCode(value: unknown): value is Code {
  return (
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[CODE_BRAND] === true
  );
}

/** Values a template may interpolate: plain values become literals; Code is inserted as is. */
export type Literal = string | number | boolean | null | undefined;
export type Interpolated<L extends CodeLanguage> = Literal | Code<L> | ReadonlyArray<Literal | Code<L>>;

function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new SnippetTemplateError(`Cannot write ${value} as a code literal`);
  return String(value);
}

const LITERAL_WRITERS: Record<CodeLanguage, (value: Literal) => string> = {
  python: (value) => {
    if (value === null || value === undefined) return "None";
    if (typeof value === "boolean") return value ? "True" : "False";
    if (typeof value === "number") return numberLiteral(value);
    return pythonStringLiteral(value);
  },
  js: (value) => {
    if (value === undefined) return "undefined";
    if (value === null) return "null";
    if (typeof value === "boolean") return value ? "true" : "false";
    if (typeof value === "number") return numberLiteral(value);
    return jsStringLiteral(value);
  },
  sh: (value) => shellWord(value === null || value === undefined ? "" : String(value)),
};

const LIST_WRITERS: Record<CodeLanguage, (items: string[]) => string> = {
  python: (items) => `[${items.join(", ")}]`,
  js: (items) => `[${items.join(", ")}]`,
  sh: (items) => items.join(" "),
};

function writeValue<L extends CodeLanguage>(language: L, value: Interpolated<L>): string {
  if (isCode(value)) {
    if (value.language !== language) {
      throw new SnippetTemplateError(`A ${value.language} fragment cannot be inserted into ${language} code`);
    }
    return value.text;
  }
  if (Array.isArray(value)) {
    return LIST_WRITERS[language](value.map((item) => writeValue(language, item as Interpolated<L>)));
  }
  if (typeof value === "object" && value !== null) {
    // Records are JSON from users: a field typed as text may hold an object. It still only becomes a literal.
    return LITERAL_WRITERS[language](JSON.stringify(value));
  }
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean" && value != null) {
    return LITERAL_WRITERS[language](String(value));
  }
  return LITERAL_WRITERS[language](value as Literal);
}

/** A snippet template used in a way that could not produce safe code: a bug in the catalogue, not a record. */
export class SnippetTemplateError extends TasksError {}

/** A template that places an interpolation inside a string or a comment of the generated code. */
export class TemplatePlacementError extends SnippetTemplateError {
  constructor(language: CodeLanguage, index: number, state: string, before: string) {
    super(
      `Interpolation ${index} of a ${language} snippet template sits inside a ${state} (after ${JSON.stringify(before.slice(-40))}): ` +
        "values may only be placed where code goes, so that they become literals.",
    );
  }
}

function tag<L extends CodeLanguage>(language: L) {
  return (strings: TemplateStringsArray, ...values: Interpolated<L>[]): Code<L> => {
    let text = strings[0] ?? "";
    let scanner = scan(language, startScanner(), text);
    values.forEach((value, i) => {
      if (scanner.state !== "code") throw new TemplatePlacementError(language, i, scanner.state, text);
      const piece = writeValue(language, value) + (strings[i + 1] ?? "");
      scanner = scan(language, scanner, piece);
      text += piece;
    });
    return makeCode(language, text);
  };
}

/** Python code; interpolated strings become Python string literals. */
export const py = tag("python");
/** JavaScript code; interpolated strings become JS string literals. */
export const js = tag("js");
/** Shell code; interpolated strings become single shell words. */
export const sh = tag("sh");

/** Joins fragments of one language with a separator that is itself code (default: newline). */
export function joinCode<L extends CodeLanguage>(
  language: L,
  parts: ReadonlyArray<Code<L>>,
  separator = "\n",
): Code<L> {
  return makeCode(language, parts.map((part) => writeValue(language, part)).join(separator));
}

/**
 * A Python identifier taken from a model record (e.g. an auto class name), inserted as code only when it is
 * a plain ASCII identifier; anything else falls back to `fallback`, which is our own constant.
 */
export function pythonIdentifier(name: string | undefined, fallback: string): Code<"python"> {
  const chosen = isPythonIdentifier(name) ? name : fallback;
  if (!isPythonIdentifier(chosen))
    throw new SnippetTemplateError(`Fallback ${fallback} is not a Python identifier`);
  return makeCode("python", chosen);
}

const PYTHON_DOTTED_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** A dotted Python name of our own (module path or attribute chain), checked so it can only be a name. */
export function pythonName(name: string): Code<"python"> {
  if (!PYTHON_DOTTED_NAME.test(name))
    throw new SnippetTemplateError(`${JSON.stringify(name)} is not a dotted Python name`);
  return makeCode("python", name);
}

const COMMENT_PREFIX: Record<CodeLanguage, string> = { python: "# ", js: "// ", sh: "# " };
const LINE_BREAKING = /[\p{C}\p{Zl}\p{Zp}]+/gu;

/**
 * A one-line comment. Any character that could end the line (or hide text) becomes a space, so even an
 * untrusted text cannot leave the comment.
 */
export function comment<L extends CodeLanguage>(language: L, text: string): Code<L> {
  return makeCode(language, `${COMMENT_PREFIX[language]}${text.replace(LINE_BREAKING, " ").trimEnd()}`);
}
