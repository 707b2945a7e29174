import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { HOSTILE_TEXTS } from "../../../tasks/src/quoting/__fixtures__/hostile-texts.js";
import { CODE_FIELDS, codeValue, LazyCodeValue } from "./code-value.js";
import { CodeExpr } from "./expr.js";
import { jsValue } from "./js.js";
import { pyKwargs, pyValue } from "./python.js";
import { shJson } from "./shell.js";

/**
 * Strings are quoted by @modelhub/tasks (its quoting tests run the one hostile corpus through python3,
 * node and bash); here, the structures built around them: JSON values, keyword arguments, JSON words.
 */

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
  it("write JSON values as Python, hostile keys and texts included", () => {
    const value = { a: [1, 2.5, null, true, false], "not id": { nested: "x" }, empty: [], none: {} };
    const hostile = Object.fromEntries(HOSTILE_TEXTS.map((text, i) => [text, [text, i]]));
    expect(evalPython([pyValue(value), pyValue(hostile)])).toEqual([value, hostile]);
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
  it("write JSON values as object literals, hostile keys and texts included", () => {
    const value = { a: [1, "two"], "x-y": { $ok: null } };
    const hostile = Object.fromEntries(HOSTILE_TEXTS.map((text, i) => [text, [text, i]]));
    expect(evalJs([jsValue(value), jsValue(hostile)])).toEqual([value, hostile]);
    expect(jsValue({ a: 1, "b c": 2 })).toBe('{\n    a: 1,\n    "b c": 2,\n}');
  });
});

describe("shell JSON words", () => {
  it("reach curl -d as the exact JSON document", () => {
    const value = { inputs: HOSTILE_TEXTS.filter((text) => !text.includes("\u0000")) };
    expect(evalShell([shJson(value)]).map((text) => JSON.parse(text))).toEqual([value]);
  });
});

describe("LazyCodeValue", () => {
  it("makes the texts codeValue makes, each once, when read", () => {
    const values: unknown[] = [
      "text",
      { inputs: "a", parameters: { top_k: 2 } },
      { "not an identifier": 1 },
      [1, "b"],
      null,
      7,
      new CodeExpr('os.environ["HF_TOKEN"]', "process.env.HF_TOKEN", '"${HF_TOKEN}"'),
    ];
    for (const value of values) {
      const lazy = new LazyCodeValue(value);
      const eager = codeValue(value);
      for (const field of CODE_FIELDS)
        expect(lazy[field], `${field} of ${String(value)}`).toEqual(eager[field]);
      expect(lazy.py).toBe(lazy.py);
    }
  });
});
