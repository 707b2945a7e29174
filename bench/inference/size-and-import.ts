/** Chat-only bundle size (esbuild bundle + minify, gzipped) and cold import time of each client. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { median } from "./measure.js";

const ENTRIES: Record<string, string> = {
  "@modelhub/inference": `import { chatCompletion } from "@modelhub/inference";\nexport const run = (u) => chatCompletion({ endpointUrl: u, messages: [{ role: "user", content: "hi" }] });\n`,
  "@huggingface/inference": `import { chatCompletion } from "@huggingface/inference";\nexport const run = (u) => chatCompletion({ endpointUrl: u, messages: [{ role: "user", content: "hi" }] });\n`,
  openai: `import OpenAI from "openai";\nexport const run = (u) => new OpenAI({ baseURL: u, apiKey: "k", dangerouslyAllowBrowser: true }).chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] });\n`,
};

const benchDir = new URL("..", import.meta.url).pathname;

/**
 * Each client's chat-only program bundled as a user's bundler would: ours from its published files
 * (`dist/`, built first when stale), the peers from their installed packages. The sources are not what
 * users install, and the build once kept 0.8 KB there that the sources shed (check-packs holds the two
 * together now).
 */
export async function bundleSizes(): Promise<Map<string, { minified: number; gzipped: number }>> {
  execFileSync(
    process.execPath,
    [join(benchDir, "../scripts/build.mjs"), "--if-stale", "packages/tasks", "packages/inference"],
    { cwd: join(benchDir, ".."), stdio: "inherit" },
  );
  const dir = mkdtempSync(join(tmpdir(), "inference-bench-"));
  const sizes = new Map<string, { minified: number; gzipped: number }>();
  for (const [name, source] of Object.entries(ENTRIES)) {
    const entry = join(benchDir, `.entry-${name.replace(/[@/]/g, "_")}.mjs`);
    writeFileSync(entry, source);
    try {
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        minify: true,
        format: "esm",
        platform: "browser",
        conditions: [],
        write: false,
        logLevel: "silent",
        outdir: dir,
      });
      const code = result.outputFiles[0]!.contents;
      sizes.set(name, { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length });
    } finally {
      execFileSync("rm", ["-f", entry]);
    }
  }
  return sizes;
}

/**
 * Cold import in a fresh node process, median of `runs`. Each process first imports an empty module, so
 * node's own ESM loader start-up (~20 ms, and very noisy on a shared machine) is not counted: what is
 * timed is reading, compiling and evaluating the package. Ours is imported as the bundle a build would
 * publish (esbuild, all of src/index.ts, not minified); the peers from their installed packages.
 */
export async function importTimes(runs = 7): Promise<Map<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), "inference-bench-"));
  const ours = join(dir, "modelhub-inference.mjs");
  await build({
    entryPoints: [join(benchDir, "../packages/inference/src/index.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile: ours,
    logLevel: "silent",
  });
  const empty = join(dir, "empty.mjs");
  writeFileSync(empty, "export {};\n");
  const tiny = join(dir, "tiny.mjs");
  writeFileSync(tiny, "export const one = 1;\n");
  const specifiers: Record<string, string> = {
    "(a one-line module)": tiny,
    "@modelhub/inference": ours,
    "@huggingface/inference": "@huggingface/inference",
    openai: "openai",
  };
  const times = new Map<string, number>();
  for (const [name, specifier] of Object.entries(specifiers)) {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const script = `await import(${JSON.stringify(empty)}); const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
      const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: benchDir });
      samples.push(Number(out.toString().trim()));
    }
    times.set(name, median(samples));
  }
  return times;
}
