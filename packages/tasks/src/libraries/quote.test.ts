import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOSTILE_TEXTS } from "./__fixtures__/hostile-texts.js";
import {
  comment,
  isCode,
  js,
  jsStringLiteral,
  py,
  pythonIdentifier,
  pythonStringLiteral,
  SnippetTemplateError,
  sh,
  shellWord,
  TemplatePlacementError,
} from "./quote.js";

/** Hostile texts plus random Unicode strings (fixed seed: deterministic). */
const SAMPLES: string[] = [
  ...HOSTILE_TEXTS,
  ...fc.sample(fc.string({ unit: "binary", maxLength: 40 }), { numRuns: 300, seed: 42 }),
  ...fc.sample(fc.string({ unit: "grapheme-composite", maxLength: 20 }), { numRuns: 100, seed: 7 }),
];

/** These tests start interpreters on a shared machine: allow for load. */
const SLOW_TEST_MS = 60_000;

describe("pythonStringLiteral", () => {
  it(
    "evaluates back to exactly the original text in Python (ast.literal_eval, one process)",
    () => {
      const literals = SAMPLES.map(pythonStringLiteral);
      const script =
        "import ast, json, sys\n" +
        "lits = json.loads(sys.stdin.read())\n" +
        "print(json.dumps([ast.literal_eval(l) for l in lits], ensure_ascii=True))\n";
      const out = execFileSync("python3", ["-c", script], {
        input: JSON.stringify(literals),
        encoding: "utf8",
      });
      expect(JSON.parse(out)).toEqual(SAMPLES);
    },
    SLOW_TEST_MS,
  );

  it(
    "is a single line of printable characters",
    () => {
      for (const text of SAMPLES) expect(pythonStringLiteral(text)).not.toMatch(/[\p{C}\p{Zl}\p{Zp}]/u);
    },
    SLOW_TEST_MS,
  );
});

describe("jsStringLiteral", () => {
  it(
    "evaluates back to exactly the original text in Node (one process)",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "js-literals-"));
      try {
        const file = join(dir, "literals.mjs");
        writeFileSync(
          file,
          `process.stdout.write(JSON.stringify([\n${SAMPLES.map(jsStringLiteral).join(",\n")}\n]));\n`,
        );
        const out = execFileSync(process.execPath, [file], { encoding: "utf8" });
        expect(JSON.parse(out)).toEqual(SAMPLES);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SLOW_TEST_MS,
  );
});

describe("shellWord", () => {
  it(
    "reaches a command as exactly one argument equal to the text (NUL excepted: argv cannot hold it)",
    () => {
      const texts = SAMPLES.filter((t) => !t.includes("\u0000") && !/\p{Cs}/u.test(t));
      const script = `printf '%s\\0' ${texts.map(shellWord).join(" ")}`;
      const out = execFileSync("bash", ["-c", script], { encoding: "utf8" });
      expect(out.split("\u0000").slice(0, -1)).toEqual(texts);
    },
    SLOW_TEST_MS,
  );

  it(
    "leaves inert words bare and quotes everything else",
    () => {
      expect(shellWord("acme/model-7b_v1.2")).toBe("acme/model-7b_v1.2");
      expect(shellWord("a b")).toBe("'a b'");
      expect(shellWord("it's")).toBe("'it'\\''s'");
      expect(shellWord("~root")).toBe("'~root'");
      expect(shellWord("")).toBe("''");
    },
    SLOW_TEST_MS,
  );
});

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
