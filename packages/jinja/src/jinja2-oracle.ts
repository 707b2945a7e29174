import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Template, TemplateError } from "./index.js";

/**
 * Test helper: renders templates with Python's Jinja2 (scripts/render-jinja2.py, one process per batch)
 * and with the engine, and lists where they differ. Property tests sample templates with fast-check and
 * check them here in one batch.
 */

const SCRIPT = fileURLToPath(new URL("../scripts/render-jinja2.py", import.meta.url));
/** The fixed clock of the goldens (make-goldens.py's FIXED_NOW). */
export const GOLDEN_NOW = () => new Date(2024, 6, 26, 14, 30, 45);

/**
 * Whether python3 can import Jinja2, the reference these suites compare with. Off CI a machine without it
 * skips them; on CI (`CI` set) a missing Jinja2 is an error, so the comparison can never pass by not running.
 */
export const hasJinja2 = (() => {
  const found = spawnSync("python3", ["-c", "import jinja2"], { stdio: "ignore" }).status === 0;
  if (!found && process.env.CI) {
    throw new Error(
      "python3 cannot import jinja2, and CI must compare the engine with it: install python3-jinja2 " +
        "(.ci/run does) or put a python3 that has Jinja2 3.1.6 first on PATH.",
    );
  }
  return found;
})();

export interface OracleCase {
  template: string;
  context?: Record<string, unknown>;
}

interface OracleResult {
  output?: string;
  error?: { type: string; message: string; phase: "parse" | "render" };
}

export function renderWithJinja2(cases: OracleCase[]): OracleResult[] {
  const raw = execFileSync("python3", [SCRIPT], {
    input: JSON.stringify(cases),
    maxBuffer: 256 * 1024 * 1024,
  });
  return JSON.parse(raw.toString("utf8")) as OracleResult[];
}

/**
 * Where the engine and Jinja2 differ: a different output, or one failing where the other does not.
 * With `sameErrors`, errors must also have the same Python type.
 */
export function differences(cases: OracleCase[], options: { sameErrors?: boolean } = {}): string[] {
  const expected = renderWithJinja2(cases);
  const problems: string[] = [];
  cases.forEach((c, i) => {
    const jinja2 = expected[i]!;
    let output: string | undefined;
    let failure: unknown;
    try {
      output = new Template(c.template, { now: GOLDEN_NOW }).render(structuredClone(c.context ?? {}));
    } catch (error) {
      failure = error;
    }
    const label = `${c.template}${c.context ? ` with ${JSON.stringify(c.context)}` : ""}`;
    if (failure !== undefined && !(failure instanceof TemplateError)) {
      problems.push(`${label}\n  non-TemplateError: ${failure}`);
    } else if (jinja2.error === undefined) {
      if (failure !== undefined || output !== jinja2.output) {
        const got = failure ? `error ${(failure as Error).message}` : JSON.stringify(output);
        problems.push(`${label}\n  Jinja2: ${JSON.stringify(jinja2.output)}\n  engine: ${got}`);
      }
    } else if (failure === undefined) {
      problems.push(
        `${label}\n  Jinja2: ${jinja2.error.type}: ${jinja2.error.message}\n  engine: ${JSON.stringify(output)}`,
      );
    } else if (options.sameErrors && "pythonType" in failure && failure.pythonType !== jinja2.error.type) {
      problems.push(
        `${label}\n  Jinja2: ${jinja2.error.type}\n  engine: ${(failure as { pythonType: string }).pythonType}`,
      );
    }
  });
  return problems;
}
