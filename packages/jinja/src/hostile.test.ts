import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ALL_CASES, NAMED_CASES } from "./__fixtures__/hostile/hostile-cases.js";
import type { CaseReport } from "./__fixtures__/hostile/run-hostile.js";

/**
 * The hostile-input corpus (__fixtures__/hostile/): every case runs with the default limits in a child
 * process whose heap is capped, so a case that hangs or exhausts memory kills the child, never this
 * process; the parent enforces the per-case time limit and restarts the child after the failed case.
 */

/** Per-case wall-clock limit. Every case takes well under a second alone; CI machines are shared. */
const CASE_LIMIT_MS = 3_000;
/** The child's V8 heap cap: a case needing more dies, and fails here by name. */
const HEAP_LIMIT_MB = 512;
/** What the child's resident memory must stay under, case after case. */
const RSS_LIMIT_MB = 768;

const RUNNER = fileURLToPath(new URL("./__fixtures__/hostile/run-hostile.ts", import.meta.url));

interface Failure {
  name: string;
  problem: string;
}

/** Runs the cases from `first` on in one child; resolves at the end or at the first hang or death. */
function runFrom(first: number, reports: CaseReport[], failures: Failure[]): Promise<number> {
  return new Promise((resolve) => {
    const child: ChildProcess = fork(RUNNER, [String(first)], {
      execArgv: ["--conditions=source", "--import", "tsx", `--max-old-space-size=${HEAP_LIMIT_MB}`],
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let current = first;
    let timer: NodeJS.Timeout | undefined;
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const next = (index: number) => resolve(index);
    child.on("message", (message: { type: string; index?: number; report?: CaseReport }) => {
      if (message.type === "start") {
        current = message.index!;
        clearTimeout(timer);
        timer = setTimeout(() => {
          failures.push({
            name: ALL_CASES[current]!.name,
            problem: `still running after ${CASE_LIMIT_MS} ms`,
          });
          child.kill("SIGKILL");
        }, CASE_LIMIT_MS);
      } else if (message.type === "done") {
        clearTimeout(timer);
        reports.push(message.report!);
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return next(ALL_CASES.length);
      const killedByUs = failures.at(-1)?.name === ALL_CASES[current]!.name;
      if (!killedByUs) {
        failures.push({
          name: ALL_CASES[current]!.name,
          problem: `the child died (${signal ?? `exit ${code}`}): ${stderr.trim().split("\n").slice(-3).join(" ")}`,
        });
      }
      next(current + 1);
    });
  });
}

describe("hostile templates", () => {
  it(`each ends within ${CASE_LIMIT_MS} ms with its result or a typed error, under ${RSS_LIMIT_MB} MB`, async () => {
    const reports: CaseReport[] = [];
    const failures: Failure[] = [];
    for (let first = 0; first < ALL_CASES.length; ) first = await runFrom(first, reports, failures);

    for (const report of reports) {
      const hostile = ALL_CASES[report.index]!;
      if (report.ms > CASE_LIMIT_MS)
        failures.push({ name: hostile.name, problem: `took ${Math.round(report.ms)} ms` });
      if (report.rssMb > RSS_LIMIT_MB)
        failures.push({ name: hostile.name, problem: `RSS reached ${Math.round(report.rssMb)} MB` });
      if (report.outcome.startsWith("not a TemplateError"))
        failures.push({ name: hostile.name, problem: report.outcome });
      if (hostile.limit && report.outcome !== "LimitExceededError")
        failures.push({ name: hostile.name, problem: `expected a limit error, got ${report.outcome}` });
    }
    expect(failures).toEqual([]);
    expect(reports).toHaveLength(ALL_CASES.length);
  }, 240_000);

  it("names each reproduction of the issue", () => {
    const names = new Set(NAMED_CASES.map((c) => c.name));
    expect(names.size).toBe(NAMED_CASES.length);
    expect(ALL_CASES.length).toBeGreaterThan(1000);
  });
});
