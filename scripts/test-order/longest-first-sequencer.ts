import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const REPO_DIR = fileURLToPath(new URL("../..", import.meta.url));
const DURATIONS_FILE = fileURLToPath(new URL("./test-durations.json", import.meta.url));

/** Seconds each test file took in a whole run, by its path from the repository root (test-durations.json). */
export function readDurations(file = DURATIONS_FILE): Map<string, number> {
  const table = JSON.parse(readFileSync(file, "utf8")) as { seconds: Record<string, number> };
  return new Map(Object.entries(table.seconds));
}

/**
 * The order to start test files in: longest first, whatever their project, so the long files (browser
 * journeys, snippet executions) start while there is still other work to run beside them and the workers
 * finish together. A file the table does not know (new since the table was made) counts as the median.
 * Vitest still runs each `sequence.groupOrder` group, and the one-file-at-a-time group, on its own.
 */
export function longestFirst<T>(
  files: readonly T[],
  pathOf: (file: T) => string,
  durations: Map<string, number>,
): T[] {
  const known = [...durations.values()].sort((a, b) => a - b);
  const median = known.length > 0 ? known[Math.floor(known.length / 2)]! : 0;
  const seconds = (file: T) => durations.get(pathOf(file)) ?? median;
  return [...files].sort((a, b) => seconds(b) - seconds(a) || pathOf(a).localeCompare(pathOf(b)));
}

/** Vitest's sequencer (root vitest.config.ts `sequence.sequencer`): longestFirst over the run's files. */
export class LongestFirstSequencer extends BaseSequencer {
  private readonly durations = readDurations();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return longestFirst(files, (spec) => relative(REPO_DIR, spec.moduleId), this.durations);
  }
}
