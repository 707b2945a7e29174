/**
 * Child process of hostile.test.ts: renders each hostile case in turn and reports to the parent over IPC,
 * so that a case that hangs or exhausts memory kills this process, never the test runner.
 */
import { Template, TemplateError } from "../../index.js";
import { ALL_CASES } from "./hostile-cases.js";

export interface CaseReport {
  index: number;
  name: string;
  ms: number;
  /** "ok", or the error class's name. */
  outcome: string;
  message: string;
  rssMb: number;
}

const send = (message: unknown) =>
  new Promise<void>((resolve) => {
    process.send!(message, () => resolve());
  });

const first = Number(process.argv[2] ?? 0);
for (let index = first; index < ALL_CASES.length; index++) {
  const hostile = ALL_CASES[index]!;
  await send({ type: "start", index });
  const started = performance.now();
  let outcome = "ok";
  let message = "";
  try {
    new Template(hostile.template).render(hostile.context ?? {});
  } catch (error) {
    outcome = error instanceof TemplateError ? error.name : `not a TemplateError: ${String(error)}`;
    message = error instanceof Error ? error.message.slice(0, 200) : "";
  }
  const ms = performance.now() - started;
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  const report: CaseReport = { index, name: hostile.name, ms, outcome, message, rssMb };
  await send({ type: "done", report });
}
process.exit(0);
