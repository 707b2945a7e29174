/**
 * The cold first call (CPU ms) of @modelhub/snippets as shipped at an older commit and as in the working
 * tree, in interleaved fresh processes (so both see the same machine load), with the bundles' sizes.
 * Run from bench/: node --conditions=source --import tsx snippets/compare-commit.ts <commit> [--runs N]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { CASES, oursArgs } from "./cases.js";
import { bundle, coldRun, fileKb, repoRoot } from "./cold.js";
import { median } from "./measure.js";

const commit = process.argv[2];
if (!commit || commit.startsWith("--")) throw new Error("usage: compare-commit.ts <commit> [--runs N]");
const runsIndex = process.argv.indexOf("--runs");
const RUNS = runsIndex >= 0 ? Number(process.argv[runsIndex + 1]) : 41;
const dir = mkdtempSync(join(tmpdir(), "snippets-compare-"));
const firstCase = [...oursArgs(CASES[0]!)];

// The commit's packages/ in a scratch folder; every @modelhub/* import is pointed there (third-party
// packages still come from the repository's node_modules).
const old = join(dir, "old");
mkdirSync(old);
execFileSync("sh", ["-c", `git -C "${repoRoot}" archive "${commit}" packages | tar -x -C "${old}"`]);
symlinkSync(join(repoRoot, "node_modules"), join(old, "node_modules"));
const workspaces = ["jinja", "tasks", "inference", "snippets"];
const oldFile = join(dir, "before.mjs");
await build({
  entryPoints: [join(old, "packages/snippets/src/index.ts")],
  bundle: true,
  format: "esm",
  platform: "node",
  conditions: ["source"],
  alias: Object.fromEntries(
    workspaces.map((name) => [`@modelhub/${name}`, join(old, `packages/${name}/src`)]),
  ),
  outfile: oldFile,
  logLevel: "silent",
});
const before = pathToFileURL(oldFile).href;
const now = await bundle('export * from "@modelhub/snippets";', join(dir, "now.mjs"));

const cpu = { before: [] as number[], now: [] as number[] };
for (let run = 0; run < RUNS; run++) {
  for (const [name, specifier] of [
    ["before", before],
    ["now", now],
  ] as const) {
    const result = coldRun("ours", specifier, firstCase);
    cpu[name].push(result.totalCpuMs!);
  }
}
const line = (name: "before" | "now", url: string) =>
  `${name.padEnd(7)} ${fileKb(url).padStart(7)}  ${median(cpu[name]).toFixed(1).padStart(6)} ms  (min ${Math.min(...cpu[name]).toFixed(1)})`;
console.log(
  `cold import + first call, CPU, fresh node process, median of ${RUNS} interleaved (${commit} vs now)`,
);
console.log(line("before", before));
console.log(line("now", now));
console.log(`ratio before/now: ${(median(cpu.before) / median(cpu.now)).toFixed(2)}x`);
rmSync(dir, { recursive: true, force: true });
