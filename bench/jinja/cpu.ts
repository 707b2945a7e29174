/**
 * CPU time of rendering the chat-template corpus, parsed once: @modelhub/jinja at a git revision vs the
 * working tree vs @huggingface/jinja, in one process (alternating rounds, medians). CPU time moves less than
 * wall time on a shared machine, and one process sees the same load for all three.
 * Run: npm run bench:jinja-cpu -w bench -- [revision, default HEAD] [rounds, default 15]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as hf from "@huggingface/jinja";
import { build } from "esbuild";
import { corpusPairs } from "./pairs.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const [revision = "HEAD", roundsArg = "15"] = process.argv.slice(2);
const rounds = Number(roundsArg);

interface Engine {
  Template: new (source: string) => { render(context: Record<string, unknown>): string };
}

const work = mkdtempSync(join(tmpdir(), "jinja-cpu-"));
/** The engine of `srcDir` bundled by esbuild into one module, so both revisions load the same way. */
async function bundle(srcDir: string, name: string): Promise<Engine> {
  const outfile = join(work, `${name}.mjs`);
  await build({
    entryPoints: [join(srcDir, "src/index.ts")],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    logLevel: "silent",
  });
  return import(pathToFileURL(outfile).href);
}

const oldTree = join(work, "old");
mkdirSync(oldTree);
const archive = execFileSync("git", ["-C", repoRoot, "archive", revision, "packages/jinja/src"], {
  maxBuffer: 1 << 30,
});
execFileSync("tar", ["-x", "-C", oldTree], { input: archive });
const before = await bundle(join(oldTree, "packages/jinja"), "before");
const now = await bundle(join(repoRoot, "packages/jinja"), "now");
rmSync(work, { recursive: true, force: true });

// The pairs run.ts renders: those both engines render without error.
const jobs = corpusPairs().filter((pair) => {
  try {
    new hf.Template(pair.source).render(pair.context);
    new now.Template(pair.source).render(pair.context);
    return true;
  } catch {
    return false;
  }
});

const engines: [string, Engine][] = [
  [`@modelhub/jinja ${revision}`, before],
  ["@modelhub/jinja now", now],
  ["@huggingface/jinja", hf as unknown as Engine],
];
const parsed = engines.map(([, engine]) => jobs.map((job) => new engine.Template(job.source)));
let sink = 0;
/** CPU milliseconds per pass over all jobs (5 passes per round). */
function round(templates: { render(context: Record<string, unknown>): string }[]): number {
  const start = process.cpuUsage();
  for (let pass = 0; pass < 5; pass++) {
    for (let i = 0; i < jobs.length; i++) sink += templates[i]!.render(jobs[i]!.context).length;
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / 5;
}
for (let i = 0; i < 3; i++) for (const templates of parsed) round(templates);
const times: number[][] = engines.map(() => []);
for (let r = 0; r < rounds; r++) {
  parsed.forEach((templates, i) => {
    times[i]!.push(round(templates));
  });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const medians = times.map(median);

console.log(
  `${jobs.length} (template, conversation) pairs, parsed once; ${rounds} alternating rounds; load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")}`,
);
console.log("");
console.log("CPU ms per pass (median)     ms   vs now");
engines.forEach(([name], i) => {
  console.log(
    `${name.padEnd(26)} ${medians[i]!.toFixed(2).padStart(6)}  ${(medians[i]! / medians[1]!).toFixed(2).padStart(6)}x`,
  );
});
if (sink === 0) console.log("(no output)");
