/**
 * "Use this model" snippet generation: @modelhub/snippets vs @huggingface/inference's snippet generator,
 * side by side in one run.
 *   - coverage (coverage.ts): every (provider, task) case of the public generator's provider table and
 *     its own fixture inputs: the cases it writes snippets for that we do not, and the snippet counts;
 *   - warm: calls per CPU second, alternating rounds, after warm-up: over the golden files' 24 calls
 *     (cases.ts) and over all the cases both cover, with the worst single case. Ours runs as the bundle
 *     a build ships (esbuild of src/index.ts and its workspace dependencies), theirs as installed;
 *   - cold: a fresh `node` process per run, import + first snippet call timed inside it (CPU and wall),
 *     median of --runs: ours as a user's bundler ships it (one esbuild bundle) and as installed (the
 *     packages' dist: run `npm run build` in packages/tasks, inference and snippets first), theirs
 *     installed and bundled; and the same first call in a fresh Chromium per run (browser-cold.ts).
 * Rates and times are given in CPU time as well as wall time: the machine is shared, and a process waiting
 * for a core is not slower code.
 * Run: npm run bench:snippets -w bench   (options: --runs N cold runs, --ms N CPU ms per warm round)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { snippets as hfSnippets } from "@huggingface/inference";
import type { getInferenceSnippets as Generate } from "@modelhub/snippets";
import { type BrowserColdResult, browserBundle, browserColdRun } from "./browser-cold.js";
import { CASES, oursArgs, theirsArgs } from "./cases.js";
import { bundle, type ColdResult, coldRun, fileKb } from "./cold.js";
import { type CoverageCase, coverage, fixtureCases, providerTableCases, theirsFor } from "./coverage.js";
import { installedEntry, installPacked, loadedModules } from "./installed.js";
import { measureRate, median, type Rate } from "./measure.js";

const argValue = (name: string, fallback: number) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const RUNS = argValue("--runs", 7);
const WARM_MS = argValue("--ms", 1000);
const WARM_ROUNDS = 5;

const dir = mkdtempSync(join(tmpdir(), "snippets-bench-"));
// Ours as shipped: the bundle (the cold runs import the same file).
const oursBundle = await bundle('export * from "@modelhub/snippets";', join(dir, "ours.mjs"));
const { getInferenceSnippets } = (await import(oursBundle)) as { getInferenceSnippets: typeof Generate };

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

// --- warm, over every case both generators cover (coverage.ts), and the worst single case ---
const tableCases = providerTableCases();
const fixtures = fixtureCases();
const oursCall = (c: CoverageCase) => {
  const provider = c.provider === "auto" ? "hf-inference" : c.provider;
  return getInferenceSnippets(c.model, c.accessToken, provider as never, c.providerId, c.options as never);
};
const shared = [...tableCases, ...fixtures].filter((c) => theirsFor(c).length > 0 && oursCall(c).length > 0);
const warmAll = { ours: [] as Rate[], theirs: [] as Rate[] };
for (let round = 0; round < WARM_ROUNDS; round++) {
  warmAll.ours.push(
    measureRate(() => {
      for (const c of shared) sink += oursCall(c).length;
      return shared.length;
    }, WARM_MS),
  );
  warmAll.theirs.push(
    measureRate(() => {
      for (const c of shared) sink += theirsFor(c).length;
      return shared.length;
    }, WARM_MS),
  );
}
const perCase = shared.map((c) => {
  const snippetsOurs = oursCall(c).length;
  const snippetsTheirs = theirsFor(c).length;
  const once = (generate: () => unknown[]) => () => {
    sink += generate().length;
    return 1;
  };
  const rates = [0, 1, 2].map(() => ({
    ours: measureRate(
      once(() => oursCall(c)),
      30,
    ).perCpuSecond,
    theirs: measureRate(
      once(() => theirsFor(c)),
      30,
    ).perCpuSecond,
  }));
  const ratio = median(rates.map((r) => r.ours / r.theirs));
  return { name: c.name, ratio, perSnippet: (ratio * snippetsOurs) / snippetsTheirs };
});
perCase.sort((a, b) => a.ratio - b.ratio);

// --- cold ---
// As a user installs it: the tarballs `npm pack` makes of the generator and its production dependencies.
const installed = installPacked(dir);
const installedFiles = loadedModules(installed.dir);
const variants = [
  {
    label: "@modelhub/snippets (bundle)",
    mode: "ours" as const,
    specifier: oursBundle,
    args: [...ours[0]!],
    bundled: true,
  },
  {
    label: "@modelhub/snippets (installed)",
    mode: "ours" as const,
    specifier: pathToFileURL(installedEntry(installed.dir)).href,
    args: [...ours[0]!],
    bundled: false,
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

// --- cold in Chromium ---
const browserFiles = {
  ours: await browserBundle('export * from "@modelhub/snippets";', join(dir, "ours-browser.js")),
  theirs: await browserBundle(
    'export { snippets } from "@huggingface/inference";',
    join(dir, "theirs-browser.js"),
  ),
};
const browser = { ours: [] as BrowserColdResult[], theirs: [] as BrowserColdResult[] };
for (let run = 0; run < RUNS; run++) {
  browser.ours.push(
    await browserColdRun(
      "ours",
      browserFiles.ours,
      [...ours[0]!].map((v) => v ?? null),
    ),
  );
  browser.theirs.push(
    await browserColdRun(
      "theirs",
      browserFiles.theirs,
      [...theirs[0]!].map((v) => v ?? null),
    ),
  );
}
rmSync(dir, { recursive: true, force: true });

// --- coverage ---
const tableCoverage = coverage(tableCases);
const fixtureCoverage = coverage(fixtures);

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
console.log(
  `warm, all ${shared.length} cases both cover (coverage.ts), median of ${WARM_ROUNDS} alternating rounds`,
);
{
  const o = rate(warmAll.ours, "perCpuSecond");
  const t = rate(warmAll.theirs, "perCpuSecond");
  console.log(
    `${"calls per CPU second".padEnd(37)} ${int(o).padStart(18)}  ${int(t).padStart(22)}  ${ratio(o / t).padStart(6)}`,
  );
}
console.log(
  "slowest cases against theirs (calls per CPU s; per snippet: the ratio times ours/theirs snippets)",
);
for (const c of perCase.slice(0, 5)) {
  console.log(`  ${c.name.padEnd(44)} ${ratio(c.ratio).padStart(6)}  per snippet ${ratio(c.perSnippet)}`);
}
console.log("");
console.log(`coverage of the public generator's cases (a case: it writes at least one snippet)`);
for (const [label, report] of [
  ["provider table (model x provider x task)", tableCoverage],
  ["its fixture inputs (test x provider)", fixtureCoverage],
] as const) {
  console.log(
    `  ${label.padEnd(44)} ${report.covered}/${report.total} covered; snippets ours ${report.oursSnippets}, theirs ${report.theirsSnippets}`,
  );
  for (const name of report.missing) console.log(`    missing: ${name}`);
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
console.log(`cold in Chromium (a fresh browser per run), median of ${RUNS} runs (ms, wall)`);
console.log("                                          import  1st call  total  page script time");
for (const [label, runs] of [
  ["@modelhub/snippets (browser bundle)", browser.ours],
  ["@huggingface/inference (browser bundle)", browser.theirs],
] as const) {
  console.log(
    `${label.padEnd(41)} ${ms(median(runs.map((r) => r.importMs))).padStart(6)}  ${ms(median(runs.map((r) => r.firstCallMs))).padStart(8)}  ${ms(median(runs.map((r) => r.totalMs))).padStart(5)}  ${ms(median(runs.map((r) => r.scriptMs))).padStart(16)}`,
  );
}
console.log("");
const warmRatio = rate(warm.ours, "perCpuSecond") / rate(warm.theirs, "perCpuSecond");
const warmAllRatio = rate(warmAll.ours, "perCpuSecond") / rate(warmAll.theirs, "perCpuSecond");
console.log(
  `goal warm >= 10x theirs: ${ratio(warmRatio)} (24 golden calls), ${ratio(warmAllRatio)} (all ${shared.length} shared cases), CPU time`,
);
const installedRuns = cold.get("@modelhub/snippets (installed)")!;
const installedCpu = median(installedRuns.map((r) => r.totalCpuMs!));
const peerInstalledCpu = median(cold.get("@huggingface/inference (installed)")!.map((r) => r.totalCpuMs!));
console.log(`goal cold first call <= 20 ms: ${ms(oursCpu)} ms CPU, ${ms(oursWall)} ms wall (bundle)`);
console.log(
  `goal cold first call <= 20 ms, installed (${installed.packages.join(", ")}: ${installedFiles.count} file(s), ${(installedFiles.bytes / 1024).toFixed(0)} KB loaded): ${ms(installedCpu)} ms CPU, ${ms(median(installedRuns.map((r) => r.totalMs!)))} ms wall; the peer installed ${ms(peerInstalledCpu)} ms CPU (${ratio(peerInstalledCpu / installedCpu)} ours)`,
);
console.log(
  `goal coverage: ${tableCoverage.covered}/${tableCoverage.total} provider-table cases, ${fixtureCoverage.covered}/${fixtureCoverage.total} fixture cases`,
);
if (sink === 0) console.log("(no output)");
