/**
 * Chat-template rendering speed and bundle size: @modelhub/jinja vs @huggingface/jinja, side by side.
 * Renders every (corpus template x conversation) pair that both engines render without error.
 * Run: npm run bench:jinja -w bench
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { Template as HfTemplate } from "@huggingface/jinja";
import { renderChatTemplate, Template } from "@modelhub/jinja";
import { build } from "esbuild";
import { corpusPairs, type Pair } from "./pairs.js";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The pairs both engines render without error. */
const jobs: Pair[] = [];
let skipped = 0;
for (const pair of corpusPairs()) {
  try {
    new HfTemplate(pair.source).render(pair.context);
    renderChatTemplate(pair.source, pair.context as never);
    jobs.push(pair);
  } catch {
    skipped++;
  }
}

/**
 * Ops/s of `a` and `b`, measured in alternating rounds (the machine is shared and its speed drifts), after a
 * warm-up; each side's best round counts.
 */
function compare(a: () => number, b: () => number, rounds = 10, roundMs = 300): [number, number] {
  const run = (fn: () => number, ms: number) => {
    let ops = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < ms) {
      ops += fn();
      elapsed = performance.now() - start;
    }
    return (ops / elapsed) * 1000;
  };
  run(a, roundMs * 2);
  run(b, roundMs * 2);
  let bestA = 0;
  let bestB = 0;
  for (let i = 0; i < rounds; i++) {
    bestA = Math.max(bestA, run(a, roundMs));
    bestB = Math.max(bestB, run(b, roundMs));
  }
  return [bestA, bestB];
}

const ours = jobs.map((j) => new Template(j.source));
const theirs = jobs.map((j) => new HfTemplate(j.source));
let sink = 0;

const [oursParsed, theirsParsed] = compare(
  () => {
    for (let i = 0; i < jobs.length; i++) sink += ours[i]!.render(jobs[i]!.context).length;
    return jobs.length;
  },
  () => {
    for (let i = 0; i < jobs.length; i++) sink += theirs[i]!.render(jobs[i]!.context).length;
    return jobs.length;
  },
);
const [oursFull, theirsFull] = compare(
  () => {
    for (const j of jobs) sink += new Template(j.source).render(j.context).length;
    return jobs.length;
  },
  () => {
    for (const j of jobs) sink += new HfTemplate(j.source).render(j.context).length;
    return jobs.length;
  },
);

async function bundleSize(
  entry: { entryPoints: string[] } | { stdin: { contents: string; resolveDir: string } },
) {
  const result = await build({
    ...entry,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

const oursSize = await bundleSize({ entryPoints: [`${repoRoot}packages/jinja/src/index.ts`] });
const theirsSize = await bundleSize({
  stdin: {
    contents: 'export * from "@huggingface/jinja";',
    resolveDir: fileURLToPath(new URL(".", import.meta.url)),
  },
});

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `chat templates: ${jobs.length} (template, conversation) pairs both engines render (${skipped} skipped)`,
);
console.log("");
console.log("renders/s                     @modelhub/jinja  @huggingface/jinja   ratio");
console.log(
  `parsed once                   ${fmt(oursParsed).padStart(15)}  ${fmt(theirsParsed).padStart(18)}  ${(oursParsed / theirsParsed).toFixed(2).padStart(6)}x`,
);
console.log(
  `parse + render every time     ${fmt(oursFull).padStart(15)}  ${fmt(theirsFull).padStart(18)}  ${(oursFull / theirsFull).toFixed(2).padStart(6)}x`,
);
console.log("");
console.log("bundle (esbuild, minified)    @modelhub/jinja  @huggingface/jinja");
console.log(
  `raw                           ${kb(oursSize.raw).padStart(15)}  ${kb(theirsSize.raw).padStart(18)}`,
);
console.log(
  `gzip -9                       ${kb(oursSize.gzip).padStart(15)}  ${kb(theirsSize.gzip).padStart(18)}`,
);
if (sink === 0) console.log("(no output)");
