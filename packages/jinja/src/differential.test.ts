import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Template, TemplateError } from "./index.js";
import { hasJinja2 } from "./jinja2-oracle.js";

/**
 * Differential testing: templates generated at random (scripts/differential.py, fixed seeds) are rendered
 * by Python's Jinja2 and by the engine; outputs must be identical and both must fail on the same inputs.
 * Templates the engine has never seen, so this checks semantics rather than a fixed corpus.
 */

const script = fileURLToPath(new URL("../scripts/differential.py", import.meta.url));

interface Suite {
  context: Record<string, unknown>;
  cases: { template: string; output?: string; error?: string }[];
}

/** Python objects whose repr has a memory address or that Jinja2 builds lazily (generators). */
const UNCOMPARABLE = /<generator object|<built-in|<function|<bound method/;

function mismatches(suite: Suite): string[] {
  const problems: string[] = [];
  for (const c of suite.cases) {
    if (UNCOMPARABLE.test(c.output ?? c.error ?? "")) continue;
    let output: string | undefined;
    let failure: unknown;
    try {
      output = new Template(c.template).render(structuredClone(suite.context));
    } catch (error) {
      failure = error;
    }
    if (failure !== undefined && !(failure instanceof TemplateError)) {
      problems.push(`${c.template}\n  non-TemplateError: ${failure}`);
    } else if (c.error !== undefined && failure === undefined) {
      problems.push(`${c.template}\n  Jinja2: ${c.error}\n  engine: ${JSON.stringify(output)}`);
    } else if (c.error === undefined && (failure !== undefined || output !== c.output)) {
      const got = failure ? `error ${(failure as Error).message}` : JSON.stringify(output);
      problems.push(`${c.template}\n  Jinja2: ${JSON.stringify(c.output)}\n  engine: ${got}`);
    }
  }
  return problems;
}

describe.skipIf(!hasJinja2)("differential against Jinja2 (skipped: python3 cannot import jinja2)", () => {
  for (const seed of [11]) {
    it(`agrees on generated templates (seed ${seed})`, () => {
      const raw = execFileSync("python3", [script, String(seed), "500"], { maxBuffer: 64 * 1024 * 1024 });
      const result = JSON.parse(raw.toString("utf8")) as Record<
        "expressions" | "statements" | "strings" | "collections",
        Suite
      >;
      expect(result.expressions.cases.length).toBe(500);
      expect(result.strings.cases.length).toBe(1000);
      expect(mismatches(result.expressions).slice(0, 10)).toEqual([]);
      expect(mismatches(result.statements).slice(0, 10)).toEqual([]);
      expect(mismatches(result.strings).slice(0, 10)).toEqual([]);
      expect(result.collections.cases.length).toBe(1000);
      expect(mismatches(result.collections).slice(0, 10)).toEqual([]);
    }, 60_000);
  }
});
