import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Rewrites test-durations.json (the longest-first sequencer's table) from a whole run's JSON report:
 *   npx vitest run --reporter=default --reporter=json --outputFile.json=/tmp/run.json
 *   node --import tsx scripts/test-order/update-test-durations.ts /tmp/run.json
 * Files missing from the report (skipped, filtered out) keep their last figure.
 */
const REPO_DIR = fileURLToPath(new URL("../..", import.meta.url));
const DURATIONS_FILE = fileURLToPath(new URL("./test-durations.json", import.meta.url));

interface JsonReport {
  testResults: Array<{ name: string; startTime: number; endTime: number }>;
}

const reportFile = process.argv[2];
if (!reportFile) {
  console.error("usage: update-test-durations.ts REPORT.json (a run's `--reporter=json` output)");
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportFile, "utf8")) as JsonReport;
const table = JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as {
  about: string;
  seconds: Record<string, number>;
};
for (const file of report.testResults) {
  // Hundredths, at least one: a file's zero would read as "not measured".
  table.seconds[relative(REPO_DIR, file.name)] = Math.max(
    0.01,
    Math.round((file.endTime - file.startTime) / 10) / 100,
  );
}
table.seconds = Object.fromEntries(Object.entries(table.seconds).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(DURATIONS_FILE, `${JSON.stringify(table, null, 2)}\n`);
console.log(`${Object.keys(table.seconds).length} files in ${relative(REPO_DIR, DURATIONS_FILE)}`);
