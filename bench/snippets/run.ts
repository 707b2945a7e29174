/**
 * "Use this model" snippet generation: @modelhub/snippets vs @huggingface/inference's snippet generator,
 * side by side over the same cases (cases.ts) in one run.
 *   - warm: calls per second over all cases, after warm-up, in this process;
 *   - cold: a fresh `node` process per run, import + first snippet call timed inside it with performance.now(),
 *     median of RUNS. Ours is imported as the bundle a build would ship (esbuild, src/index.ts and its
 *     workspace dependencies, not minified); theirs both as installed (dist/esm) and bundled the same way.
 * Run: npm run bench:snippets -w bench   (options: --runs N, --ms N per warm measurement)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { snippets as hfSnippets } from "@huggingface/inference";
import { getInferenceSnippets } from "@modelhub/snippets";
import { CASES, oursArgs, theirsArgs } from "./cases.js";
import { bundle, type ColdResult, coldRun, fileKb } from "./cold.js";
import { median, opsPerSecond } from "./measure.js";

const argValue = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const RUNS = argValue("--runs", 7);
const WARM_MS = argValue("--ms", 2000);

// Both libraries' inputs are built once, outside the timed loops.
const ours = CASES.map((c) => oursArgs(c));
const theirs = CASES.map((c) => theirsArgs(c));
const callOurs = (i: number) =>
  getInferenceSnippets(...(ours[i] as unknown as Parameters<typeof getInferenceSnippets>));
const callTheirs = (i: number) =>
  hfSnippets.getInferenceSnippets(
    ...(theirs[i] as unknown as Parameters<typeof hfSnippets.getInferenceSnippets>),
  );

// --- what each produces (a generator that skips work would look fast) ---
const counts = CASES.map((c, i) => ({
  name: c.name,
  ours: callOurs(i).length,
  theirs: callTheirs(i).length,
}));

// --- warm ---
let sink = 0;
const warmOurs: number[] = [];
const warmTheirs: number[] = [];
for (let round = 0; round < 3; round++) {
  warmOurs.push(
    opsPerSecond(() => {
      for (let i = 0; i < CASES.length; i++) sink += callOurs(i).length;
      return CASES.length;
    }, WARM_MS),
  );
  warmTheirs.push(
    opsPerSecond(() => {
      for (let i = 0; i < CASES.length; i++) sink += callTheirs(i).length;
      return CASES.length;
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
// Interleaved so machine load drifts hit every variant alike.
for (let run = 0; run < RUNS; run++) {
  for (const v of variants) cold.get(v.label)!.push(coldRun(v.mode, v.specifier, v.args));
}
const sizes = new Map(variants.filter((v) => v.bundled).map((v) => [v.label, fileKb(v.specifier)]));
rmSync(dir, { recursive: true, force: true });

// --- report ---
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => n.toFixed(1);
const oursWarm = median(warmOurs);
const theirsWarm = median(warmTheirs);
const totalOurs = counts.reduce((sum, c) => sum + c.ours, 0);
const totalTheirs = counts.reduce((sum, c) => sum + c.theirs, 0);

console.log(`snippet generation, ${CASES.length} cases (node ${process.version})`);
console.log("");
console.log("case                              ours  theirs   (snippets per call)");
for (const c of counts)
  console.log(`${c.name.padEnd(32)} ${String(c.ours).padStart(5)}  ${String(c.theirs).padStart(6)}`);
console.log(`${"total".padEnd(32)} ${String(totalOurs).padStart(5)}  ${String(totalTheirs).padStart(6)}`);
console.log("");
console.log(`warm (median of 3 x ${WARM_MS} ms)     @modelhub/snippets  @huggingface/inference    ratio`);
console.log(
  `calls/s                           ${fmt(oursWarm).padStart(18)}  ${fmt(theirsWarm).padStart(22)}  ${(oursWarm / theirsWarm).toFixed(1).padStart(6)}x`,
);
console.log(
  `snippets/s                        ${fmt((oursWarm * totalOurs) / CASES.length).padStart(18)}  ${fmt((theirsWarm * totalTheirs) / CASES.length).padStart(22)}`,
);
console.log("");
console.log(`cold first call, fresh node process, median of ${RUNS} (ms)`);
console.log("                                     import  first call   total  bundle   vs ours");
const oursColdTotal = median(cold.get(variants[0]!.label)!.map((r) => r.totalMs!));
for (const v of variants) {
  const runs = cold.get(v.label)!;
  const total = median(runs.map((r) => r.totalMs!));
  console.log(
    `${v.label.padEnd(36)} ${ms(median(runs.map((r) => r.importMs))).padStart(6)}  ${ms(median(runs.map((r) => r.firstCallMs!))).padStart(10)}  ${ms(total).padStart(6)}  ${(sizes.get(v.label) ?? "-").padStart(6)}  ${(total / oursColdTotal).toFixed(1).padStart(7)}x`,
  );
}
console.log("");
console.log(
  `goals: warm >= 10x theirs: ${(oursWarm / theirsWarm).toFixed(1)}x; cold first call < 20 ms: ${ms(oursColdTotal)} ms`,
);
if (sink === 0) console.log("(no output)");
