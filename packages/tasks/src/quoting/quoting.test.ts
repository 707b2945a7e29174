import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTILE_TEXTS, QUOTING_SAMPLES } from "./__fixtures__/hostile-texts.js";
import {
  isPythonIdentifier,
  jsStringLiteral,
  pythonStringLiteral,
  shellWord,
  shellWordWithVariable,
} from "./index.js";

/** The one hostile corpus plus random strings, through the real interpreters (one process each). */
const SAMPLES = QUOTING_SAMPLES;

/** These tests start interpreters on a shared machine: allow for load. */
const SLOW_TEST_MS = 60_000;

const ONE_PRINTABLE_LINE = /^[^\p{C}\p{Zl}\p{Zp}]*$/u;

describe("pythonStringLiteral", () => {
  it(
    "evaluates back to exactly the text in python3 (ast.literal_eval)",
    () => {
      const script =
        "import ast, json, sys\n" +
        "print(json.dumps([ast.literal_eval(l) for l in json.loads(sys.stdin.read())], ensure_ascii=True))\n";
      const out = execFileSync("python3", ["-c", script], {
        input: JSON.stringify(SAMPLES.map(pythonStringLiteral)),
        encoding: "utf8",
      });
      expect(JSON.parse(out)).toEqual(SAMPLES);
    },
    SLOW_TEST_MS,
  );

  it("is one line of printable characters", () => {
    for (const text of SAMPLES) expect(pythonStringLiteral(text)).toMatch(ONE_PRINTABLE_LINE);
    expect(pythonStringLiteral("a\u202eb\u{e0001}")).toBe('"a\\u202eb\\U000e0001"');
  });
});

describe("jsStringLiteral", () => {
  it(
    "evaluates back to exactly the text in node (parsed as source, not as JSON)",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "js-literals-"));
      try {
        const file = join(dir, "literals.mjs");
        const literals = SAMPLES.map(jsStringLiteral).join(",\n");
        writeFileSync(file, `process.stdout.write(JSON.stringify([\n${literals}\n]));\n`);
        expect(JSON.parse(execFileSync(process.execPath, [file], { encoding: "utf8" }))).toEqual(SAMPLES);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SLOW_TEST_MS,
  );

  it("is one line of printable characters", () => {
    for (const text of SAMPLES) expect(jsStringLiteral(text)).toMatch(ONE_PRINTABLE_LINE);
    expect(jsStringLiteral("a\u2028b\u{e0001}")).toBe('"a\\u2028b\\u{e0001}"');
  });
});

describe("shellWord", () => {
  it(
    "reaches a bash command as exactly one argument equal to the text (NUL excepted: argv cannot hold it)",
    () => {
      const texts = SAMPLES.filter((t) => !t.includes("\u0000") && !/\p{Cs}/u.test(t));
      const script = `printf '%s\\0' ${texts.map(shellWord).join(" ")}`;
      const out = execFileSync("bash", ["-c", script], { encoding: "utf8", env: { HOME: "/nonexistent" } });
      expect(out.split("\u0000").slice(0, -1)).toEqual(texts);
    },
    SLOW_TEST_MS,
  );

  it("leaves inert words bare and quotes everything else", () => {
    expect(shellWord("acme/model-7b_v1.2")).toBe("acme/model-7b_v1.2");
    expect(shellWord("a b")).toBe("'a b'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord("~root")).toBe("'~root'");
    expect(shellWord("")).toBe("''");
  });
});

describe("shellWordWithVariable", () => {
  it(
    "expands only the named variable in bash, every hostile text around it staying literal",
    () => {
      const texts = HOSTILE_TEXTS.filter((t) => !t.includes("\u0000") && !/\p{Cs}/u.test(t));
      const script = texts.map((t) => `printf '%s\\0' ${shellWordWithVariable(t, "HF_TOKEN", t)}`).join("\n");
      const out = execFileSync("bash", ["-c", script], {
        encoding: "utf8",
        env: { HF_TOKEN: "hf_abc", HOME: "/nonexistent" },
      });
      expect(out.split("\u0000").slice(0, -1)).toEqual(texts.map((t) => `${t}hf_abc${t}`));
    },
    SLOW_TEST_MS,
  );

  it("refuses a variable name that is not one", () => {
    expect(() => shellWordWithVariable("x", "NOT-A-NAME")).toThrow(TypeError);
    expect(() => shellWordWithVariable("x", "A$(id)")).toThrow(TypeError);
  });
});

describe("isPythonIdentifier", () => {
  it("accepts plain ASCII identifiers that are not keywords", () => {
    expect(isPythonIdentifier("max_tokens")).toBe(true);
    for (const name of ["class", "a-b", "1x", "", "é", undefined])
      expect(isPythonIdentifier(name)).toBe(false);
  });
});
