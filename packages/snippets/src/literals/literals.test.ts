import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CodeExpr } from "./expr.js";
import { jsString, jsValue } from "./js.js";
import { pyKwargs, pyString, pyValue } from "./python.js";
import { shWord, shWordWithVariable } from "./shell.js";

const HOSTILE = [
  `it's "quoted"`,
  "back\\slash \\n not a newline",
  "$(touch /tmp/pwned) `id` ${HOME} $HOME",
  "line one\nline two\r\n\ttabbed",
  "ünïcödé — 日本語 — emoji 🤗",
  "\u2028\u2029 separators and \u0000 nul \u001b escape \u007f del",
  "'; rm -rf / #",
  "\"\"\"triple\"\"\" and '''triple'''",
  "{braces} {{double}} %s %(x)s",
];

/** Evaluates Python literals in one process: returns what each literal evaluates to. */
function evalPython(literals: string[]): string[] {
  const program = `import ast, json, sys\nprint(json.dumps([ast.literal_eval(s) for s in json.load(sys.stdin)]))`;
  const out = execFileSync("python3", ["-c", program], { input: JSON.stringify(literals) });
  return JSON.parse(out.toString("utf8"));
}

function evalJs(literals: string[]): unknown[] {
  // The literals are parsed by a separate node process as source code, not by JSON.parse.
  const program = `process.stdout.write(JSON.stringify([${literals.join(",")}]))`;
  return JSON.parse(execFileSync(process.execPath, ["-e", program]).toString("utf8"));
}

function evalShell(words: string[], env: Record<string, string> = {}): string[] {
  const script = words.map((word) => `printf '%s\\0' ${word}`).join("\n");
  const out = execFileSync("bash", ["-c", script], { env: { PATH: process.env.PATH, ...env } });
  return out.toString("utf8").split("\0").slice(0, -1);
}

describe("Python literals", () => {
  it("evaluate back to the exact text, hostile or not", () => {
    expect(evalPython(HOSTILE.map(pyString))).toEqual(HOSTILE);
  });

  it("hold for arbitrary strings (property)", () => {
    const samples = fc.sample(fc.string({ unit: "binary", maxLength: 40 }), 300);
    expect(evalPython(samples.map(pyString))).toEqual(samples);
  });

  it("write JSON values as Python", () => {
    const value = { a: [1, 2.5, null, true, false], "not id": { nested: "x" }, empty: [], none: {} };
    expect(evalPython([pyValue(value)])).toEqual([value]);
    expect(pyValue({ a: 1 })).toBe('{\n    "a": 1,\n}');
  });

  it("embed code expressions verbatim", () => {
    expect(pyValue({ Authorization: new CodeExpr('"Bearer " + os.environ["HF_TOKEN"]', "", "") })).toBe(
      '{\n    "Authorization": "Bearer " + os.environ["HF_TOKEN"],\n}',
    );
  });

  it("refuses keyword arguments that are not identifiers", () => {
    expect(pyKwargs({ max_tokens: 5 })).toBe("    max_tokens=5,");
    expect(() => pyKwargs({ "a-b": 1 })).toThrow(/cannot be a Python keyword argument/);
    expect(() => pyKwargs({ class: 1 })).toThrow(/cannot be a Python keyword argument/);
  });
});

describe("JavaScript literals", () => {
  it("evaluate back to the exact text, hostile or not", () => {
    expect(evalJs(HOSTILE.map(jsString))).toEqual(HOSTILE);
    const samples = fc.sample(fc.string({ unit: "grapheme", maxLength: 40 }), 200);
    expect(evalJs(samples.map(jsString))).toEqual(samples);
  });

  it("write JSON values as object literals", () => {
    const value = { a: [1, "two"], "x-y": { $ok: null } };
    expect(evalJs([jsValue(value)])).toEqual([value]);
    expect(jsValue({ a: 1, "b c": 2 })).toBe('{\n    a: 1,\n    "b c": 2,\n}');
  });
});

describe("shell words", () => {
  it("expand to the exact text, nothing interpreted", () => {
    expect(evalShell(HOSTILE.filter((s) => !s.includes("\u0000")).map(shWord))).toEqual(
      HOSTILE.filter((s) => !s.includes("\u0000")),
    );
  });

  it("expand only the named variable in a double-quoted word", () => {
    const word = shWordWithVariable('Authorization: Bearer "$(id)` ', "HF_TOKEN", " $HOME\\");
    expect(evalShell([word], { HF_TOKEN: "hf_abc" })).toEqual([
      'Authorization: Bearer "$(id)` hf_abc $HOME\\',
    ]);
    expect(() => shWordWithVariable("x", "NOT-A-NAME")).toThrow();
  });
});
