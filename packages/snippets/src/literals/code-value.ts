import { isPythonIdentifier, shellWord } from "@modelhub/tasks/quoting";
import { UnsupportedFormatError } from "../errors.js";
import { CodeExpr } from "./expr.js";
import { jsEntries, jsValue } from "./js.js";
import { pyKwargs, pyValue } from "./python.js";
import { shJson } from "./shell.js";

/**
 * A value as templates see it (spec §3): the object itself and its text in each target language. Templates
 * print these texts and never quote anything themselves, so every value lands in code quoted.
 */
export interface CodeValue {
  obj: unknown;
  py: string;
  ts: string;
  json: string;
  /** One shell word: a quoted string, or a quoted JSON document for objects. */
  sh: string;
  curl: string;
  /** Objects only: `key=value,` lines for a Python call, indented one level. */
  pyKwargs?: string;
  /** Objects only: `key: value,` lines for a JavaScript object literal, indented one level. */
  tsEntries?: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof CodeExpr);

/** The texts a CodeValue carries besides the object itself. */
export const CODE_FIELDS = ["py", "ts", "json", "sh", "curl", "pyKwargs", "tsEntries"] as const;
export type CodeField = (typeof CODE_FIELDS)[number];

/** Which texts to build, one flag per text (a plain object: cheaper to read per value than a Set). */
export type CodeFieldFlags = Readonly<Record<CodeField, boolean>>;

const ALL_FIELDS: CodeFieldFlags = {
  py: true,
  ts: true,
  json: true,
  sh: true,
  curl: true,
  pyKwargs: true,
  tsEntries: true,
};

/** The flags for a set of field names (all fields when omitted). */
export function codeFieldFlags(fields?: ReadonlySet<string>): CodeFieldFlags {
  if (fields === undefined) return ALL_FIELDS;
  return {
    py: fields.has("py"),
    ts: fields.has("ts"),
    json: fields.has("json"),
    sh: fields.has("sh"),
    curl: fields.has("curl"),
    pyKwargs: fields.has("pyKwargs"),
    tsEntries: fields.has("tsEntries"),
  };
}

/**
 * `fields`: the texts some template reads (all when omitted). The others are left "" (and the optional
 * ones absent) so every value keeps one shape; no template reads them, so output is the same.
 */
export function codeValue(value: unknown, fields?: ReadonlySet<string>): CodeValue {
  return codeValueWith(value, codeFieldFlags(fields));
}

/** codeValue with the wanted texts given as flags (computed once per variable by the caller). */
export function codeValueWith(value: unknown, wants: CodeFieldFlags): CodeValue {
  const sh =
    wants.sh || wants.curl
      ? value instanceof CodeExpr
        ? value.sh
        : typeof value === "string"
          ? shellWord(value)
          : shJson(value ?? null)
      : "";
  const out: CodeValue = {
    obj: value,
    py: wants.py ? pyValue(value) : "",
    ts: wants.ts ? jsValue(value) : "",
    json: wants.json && !(value instanceof CodeExpr) ? JSON.stringify(value ?? null, null, 4) : "",
    sh,
    curl: sh,
  };
  if ((wants.pyKwargs || wants.tsEntries) && isPlainObject(value)) {
    // Only objects whose keys are Python identifiers can become keyword arguments.
    if (wants.pyKwargs && Object.keys(value).every(isPythonIdentifier)) out.pyKwargs = pyKwargs(value, 1);
    if (wants.tsEntries) out.tsEntries = jsEntries(value, 1);
  }
  return out;
}

/**
 * A CodeValue whose texts are made when a template first reads them, then kept: a call renders a few
 * templates, which read a few of the ~25 variables' texts, so most texts are never made.
 */
export class LazyCodeValue implements CodeValue {
  private pyText: string | undefined = undefined;
  private tsText: string | undefined = undefined;
  private jsonText: string | undefined = undefined;
  private shText: string | undefined = undefined;
  private kwargsText: string | null | undefined = undefined;
  private entriesText: string | null | undefined = undefined;

  constructor(readonly obj: unknown) {}

  get py(): string {
    if (this.pyText === undefined) this.pyText = pyValue(this.obj);
    return this.pyText;
  }

  get ts(): string {
    if (this.tsText === undefined) this.tsText = jsValue(this.obj);
    return this.tsText;
  }

  get json(): string {
    if (this.jsonText === undefined) {
      this.jsonText = this.obj instanceof CodeExpr ? "" : JSON.stringify(this.obj ?? null, null, 4);
    }
    return this.jsonText;
  }

  get sh(): string {
    if (this.shText === undefined) {
      const value = this.obj;
      this.shText =
        value instanceof CodeExpr
          ? value.sh
          : typeof value === "string"
            ? shellWord(value)
            : shJson(value ?? null);
    }
    return this.shText;
  }

  get curl(): string {
    return this.sh;
  }

  get pyKwargs(): string | undefined {
    if (this.kwargsText === undefined) {
      const value = this.obj;
      this.kwargsText =
        isPlainObject(value) && Object.keys(value).every(isPythonIdentifier) ? pyKwargs(value, 1) : null;
    }
    return this.kwargsText ?? undefined;
  }

  get tsEntries(): string | undefined {
    if (this.entriesText === undefined)
      this.entriesText = isPlainObject(this.obj) ? jsEntries(this.obj, 1) : null;
    return this.entriesText ?? undefined;
  }
}

export type TextFormat = "curl" | "json" | "python" | "ts";

/** A value as text in one of the spec's formats (§3): curl, json, python or ts. */
export function formatValue(value: unknown, format: string): string {
  const code = codeValue(value);
  switch (format) {
    case "curl":
      return code.curl;
    case "json":
      return code.json;
    case "python":
      return code.py;
    case "ts":
      return code.ts;
    default:
      throw new UnsupportedFormatError(format);
  }
}
