/**
 * "Use this model" snippet generation: @modelhub/snippets vs @huggingface/inference's snippet generator,
 * side by side over the same cases (cases.ts) in one run.
 *   - warm: calls per second over all cases in this process, alternating rounds, after warm-up;
 *   - cold: a fresh `node` process per run, import + first snippet call timed inside it with performance.now()
 *     (and its CPU time), median of --runs. Ours is imported as the bundle a build would ship (esbuild,
 *     src/index.ts and its workspace dependencies, not minified); theirs as installed (dist/esm) and bundled
 *     the same way.
 * Rates and times are given in CPU time as well as wall time: the machine is shared, and a process waiting
 * for a core is not slower code.
 * Run: npm run bench:snippets -w bench   (options: --runs N cold runs, --ms N CPU ms per warm round)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { snippets as hfSnippets } from "@huggingface/inference";
import { getInferenceSnippets } from "@modelhub/snippets";
import { CASES, oursArgs, theirsArgs } from "./cases.js";
import { bundle, type ColdResult, coldRun, fileKb } from "./cold.js";
import { measureRate, median, type Rate } from "./measure.js";

const argValue = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const RUNS = argValue("--runs", 7);
const WARM_MS = argValue("--ms", 1000);
const WARM_ROUNDS = 5;

// Both libraries' inputs are built once, outside the timed loops.
const ours = CASES.map((c) => oursArgs(c) as unknown as Parameters<typeof getInferenceSnippets>);
const theirs = CASES.map(
  (c) => theirsArgs(c) as unknown as Parameters<typeof hfSnippets.getInferenceSnippets>,
);

// --- what each produces (a generator that skipped work would look fast) ---
const counts = CASES.map((c, i) => ({
  name: c.name,
  ours: getInferenceSnippets(...ours[i]!).length,
  theirs: hfSnippets.getInferenceSnippets(...theirs[i]!).length,
}));

// --- warm ---
let sink = 0;
const warm = { ours: [] as Rate[], theirs: [] as Rate[] };
for (let round = 0; round < WARM_ROUNDS; round++) {
  warm.ours.push(
    measureRate(() => {
      for (const args of ours) sink += getInferenceSnippets(...args).length;
      return ours.length;
    }, WARM_MS),
  );
  warm.theirs.push(
    measureRate(() => {
      for (const args of theirs) sink += hfSnippets.getInferenceSnippets(...args).length;
      return theirs.length;
    }, WARM_MS),
  );
}

// --- cold ---
const dir = mkdtempSync(join(tmpdir(), "snippets-bench-"));
const variants = [
  {
    label: "@modelhub/snippets (bundle)",
    mode: "ours" as const,
    specifier: await bundle('export * from "@modelhub/snippets";', join(dir, "ours.mjs")),
    args: [...ours[0]!],
    bundled: true,
  },
  {
    label: "@huggingface/inference (installed)",
    mode: "theirs" as const,
    specifier: "@huggingface/inference",
    args: [...theirs[0]!],
    bundled: false,
  },
  {
    label: "@huggingface/inference (bundle)",
    mode: "theirs" as const,
    specifier: await bundle('export { snippets } from "@huggingface/inference";', join(dir, "theirs.mjs")),
    args: [...theirs[0]!],
    bundled: true,
  },
];
const cold = new Map<string, ColdResult[]>(variants.map((v) => [v.label, []]));
// Interleaved so drifts in machine load hit every variant alike.
for (let run = 0; run < RUNS; run++) {
  for (const v of variants) cold.get(v.label)!.push(coldRun(v.mode, v.specifier, v.args));
}
const sizes = new Map(variants.filter((v) => v.bundled).map((v) => [v.label, fileKb(v.specifier)]));
rmSync(dir, { recursive: true, force: true });

// --- report ---
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => n.toFixed(1);
const ratio = (n: number) => `${n.toFixed(1)}x`;
const rate = (rates: Rate[], key: keyof Rate) => median(rates.map((r) => r[key]));
const total = (key: "ours" | "theirs") => counts.reduce((sum, c) => sum + c[key], 0);

console.log(`snippet generation, ${CASES.length} cases, node ${process.version}`);
console.log("");
console.log("case                              ours  theirs   (snippets per call)");
for (const c of counts) {
  console.log(`${c.name.padEnd(32)} ${String(c.ours).padStart(5)}  ${String(c.theirs).padStart(6)}`);
}
console.log(
  `${"total".padEnd(32)} ${String(total("ours")).padStart(5)}  ${String(total("theirs")).padStart(6)}`,
);
console.log("");
console.log(
  `warm, median of ${WARM_ROUNDS} alternating rounds    @modelhub/snippets  @huggingface/inference   ratio`,
);
for (const [label, key] of [
  ["calls per CPU second", "perCpuSecond"],
  ["calls per wall second", "perWallSecond"],
] as const) {
  const o = rate(warm.ours, key);
  const t = rate(warm.theirs, key);
  console.log(
    `${label.padEnd(37)} ${int(o).padStart(18)}  ${int(t).padStart(22)}  ${ratio(o / t).padStart(6)}`,
  );
}
console.log("");
console.log(`cold: import + first call in a fresh node process, median of ${RUNS} runs (ms)`);
console.log(
  "                                     import  1st call  total wall  total CPU  bundle  theirs/ours (CPU)",
);
const oursCpu = median(cold.get(variants[0]!.label)!.map((r) => r.totalCpuMs!));
const oursWall = median(cold.get(variants[0]!.label)!.map((r) => r.totalMs!));
for (const v of variants) {
  const runs = cold.get(v.label)!;
  const cpu = median(runs.map((r) => r.totalCpuMs!));
  console.log(
    `${v.label.padEnd(36)} ${ms(median(runs.map((r) => r.importMs))).padStart(6)}  ${ms(median(runs.map((r) => r.firstCallMs!))).padStart(8)}  ${ms(median(runs.map((r) => r.totalMs!))).padStart(10)}  ${ms(cpu).padStart(9)}  ${(sizes.get(v.label) ?? "-").padStart(6)}  ${ratio(cpu / oursCpu).padStart(17)}`,
  );
}
console.log("");
const warmRatio = rate(warm.ours, "perCpuSecond") / rate(warm.theirs, "perCpuSecond");
console.log(`goal warm >= 10x theirs: ${ratio(warmRatio)} (CPU time)`);
console.log(`goal cold first call < 20 ms: ${ms(oursCpu)} ms CPU, ${ms(oursWall)} ms wall`);
if (sink === 0) console.log("(no output)");
