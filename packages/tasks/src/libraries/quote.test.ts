import { describe, expect, it } from "vitest";
import { QUOTING_SAMPLES } from "../quoting/__fixtures__/hostile-texts.js";
import {
  comment,
  isCode,
  js,
  py,
  pythonIdentifier,
  pythonStringLiteral,
  SnippetTemplateError,
  sh,
  TemplatePlacementError,
} from "./quote.js";

const SAMPLES = QUOTING_SAMPLES;

/** These tests start interpreters on a shared machine: allow for load. */
const SLOW_TEST_MS = 60_000;

describe("tagged templates", () => {
  it(
    "quote interpolated strings and keep code fragments",
    () => {
      const id = 'x"y';
      expect(py`load(${id}, n=${3}, ok=${true}, none=${null})`.text).toBe(
        'load("x\\"y", n=3, ok=True, none=None)',
      );
      expect(js`load(${id}, ${false})`.text).toBe('load("x\\"y", false)');
      expect(sh`run ${id} ${["a b", "c"]}`.text).toBe("run 'x\"y' 'a b' c");
      expect(py`f(${py`inner(${id})`})`.text).toBe('f(inner("x\\"y"))');
      expect(py`${["a", "b"]}`.text).toBe('["a", "b"]');
    },
    SLOW_TEST_MS,
  );

  it(
    "refuse to mix languages",
    () => {
      expect(() => py`${js`x` as never}`).toThrow(SnippetTemplateError);
    },
    SLOW_TEST_MS,
  );

  it(
    "make Code objects no plain object can imitate",
    () => {
      expect(isCode(py`x`)).toBe(true);
      expect(isCode({ language: "python", text: "x" })).toBe(false);
      const forged = { language: "python", text: "os.system()" };
      expect(py`${forged as never}`.text).toBe(pythonStringLiteral(JSON.stringify(forged)));
    },
    SLOW_TEST_MS,
  );
});

describe("identifiers and comments", () => {
  it(
    "accept plain identifiers and fall back for anything else",
    () => {
      expect(pythonIdentifier("AutoModelForCausalLM", "AutoModel").text).toBe("AutoModelForCausalLM");
      expect(pythonIdentifier("AutoModel; import os", "AutoModel").text).toBe("AutoModel");
      expect(pythonIdentifier("class", "AutoModel").text).toBe("AutoModel");
      expect(pythonIdentifier(undefined, "AutoModel").text).toBe("AutoModel");
    },
    SLOW_TEST_MS,
  );

  it(
    "keep comments on one line whatever the text",
    () => {
      for (const text of SAMPLES) {
        const line = comment("python", text).text;
        expect(line.startsWith("# ")).toBe(true);
        expect(line).not.toMatch(/[\n\r\u2028\u2029\u0085\u000b\u000c]/);
      }
    },
    SLOW_TEST_MS,
  );
});

describe("interpolation placement", () => {
  it("is refused inside strings and comments, where a value would not become a literal", () => {
    const id = "x";
    expect(() => py`f"{${id}}"`).toThrow(TemplatePlacementError);
    expect(() => py`# load ${id}`).toThrow(TemplatePlacementError);
    expect(() => py`"""doc ${id}"""`).toThrow(TemplatePlacementError);
    expect(() => js`const a = \`${id}\`;`).toThrow(TemplatePlacementError);
    expect(() => js`// ${id}`).toThrow(TemplatePlacementError);
    expect(() => js`/* ${id} */`).toThrow(TemplatePlacementError);
    expect(() => sh`echo "${id}"`).toThrow(TemplatePlacementError);
    expect(() => sh`# ${id}`).toThrow(TemplatePlacementError);
    expect(() => sh`echo '${id}'`).toThrow(TemplatePlacementError);
  });

  it("is accepted in code, after closed strings and comments", () => {
    expect(py`x = "a#b"  # note\ny = ${"v"}`.text).toBe('x = "a#b"  # note\ny = "v"');
    expect(sh`echo a#b ${"v w"}`.text).toBe("echo a#b 'v w'");
    expect(js`const a = "it's"; // c\nconst b = ${"v"};`.text).toBe(
      'const a = "it\'s"; // c\nconst b = "v";',
    );
    expect(py`${comment("python", "note")}\nx = ${"v"}`.text).toBe('# note\nx = "v"');
  });

  it("tracks state across interpolated fragments", () => {
    expect(() => py`${comment("python", "note")} ${"v"}`).toThrow(TemplatePlacementError);
  });
});
