/**
 * Where the cold first call of @modelhub/snippets goes: the bundle as shipped, what V8 spends only parsing
 * each package's part of it (the code wrapped in a function that is never called: no module runs), the
 * import time of each workspace dependency alone, and the bundle's composition. (Templates are compiled
 * to code at build time: none is compiled at run time.)
 * Run from bench/: node --conditions=source --import tsx snippets/profile.ts [--runs N]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { CASES, oursArgs } from "./cases.js";
import { benchDir, bundle, type ColdMode, type ColdResult, coldRun, fileKb } from "./cold.js";
import { median } from "./measure.js";

const runsIndex = process.argv.indexOf("--runs");
const RUNS = runsIndex >= 0 ? Number(process.argv[runsIndex + 1]) : 7;
const dir = mkdtempSync(join(tmpdir(), "snippets-profile-"));
const firstCase = [...oursArgs(CASES[0]!)];
const OURS = 'export * from "@modelhub/snippets";';

/** Output bytes of a bundle of `contents`, per workspace package (tasks by folder). */
async function composition(contents: string): Promise<Map<string, number>> {
  const result = await build({
    stdin: { contents, resolveDir: benchDir, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    conditions: ["source"],
    write: false,
    metafile: true,
    outdir: dir,
    logLevel: "silent",
  });
  const bytes = new Map<string, number>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [file, input] of Object.entries(output.inputs)) {
      const match = file.match(/packages\/([^/]+)\/src\/(?:([^/]+)\/)?/);
      const split = match?.[1] === "tasks";
      const key = match ? (split && match[2] ? `${match[1]}/${match[2]}` : match[1]!) : "other";
      bytes.set(key, (bytes.get(key) ?? 0) + input.bytesInOutput);
    }
  }
  return bytes;
}

/**
 * The shipped bundle's code from the packages whose source path matches `part` (esbuild marks each module
 * with a `// <path>` comment), wrapped in a function that is never called: importing it costs V8's parse of
 * that code and nothing else.
 */
function parseOnly(bundleUrl: string, part: RegExp, name: string): string {
  const text = readFileSync(fileURLToPath(bundleUrl), "utf8");
  const code = text.slice(0, text.lastIndexOf("\nexport {"));
  const modules = code.split(/^(?=\/\/ \S+\.ts$)/m).filter((module) => part.test(module.split("\n", 1)[0]!));
  // Top-level import declarations are not allowed in a function body (the bundle has none of its own;
  // template text may hold some at a line start).
  const body = modules.join("").replace(/^import /gm, "//import ");
  const file = join(dir, `parse-${name}.mjs`);
  writeFileSync(file, `export function neverCalled() {\n${body}\n}\n`);
  return pathToFileURL(file).href;
}

const shippedBundle = await bundle(OURS, join(dir, "ours.mjs"));
type Variant = { label: string; mode: ColdMode; specifier: string; args?: unknown[] };
/** Importing one package alone (a bundle of it), beside an empty module's import as the baseline. */
const importOnly: Variant[] = [];
for (const [what, source, file] of [
  ["an empty module (baseline)", "export const empty = true;", "empty.mjs"],
  ["@modelhub/tasks", 'export * from "@modelhub/tasks";', "tasks.mjs"],
  [
    "@modelhub/tasks/inputs + /quoting",
    'export * from "@modelhub/tasks/inputs";\nexport * from "@modelhub/tasks/quoting";',
    "tasks-parts.mjs",
  ],
  ["@modelhub/inference", 'export * from "@modelhub/inference";', "inference.mjs"],
] as const) {
  importOnly.push({
    label: `import only: ${what}`,
    mode: "import",
    specifier: await bundle(source, join(dir, file)),
  });
}
const variants: Variant[] = [
  {
    label: "snippets: import + 1st call (as shipped)",
    mode: "ours",
    specifier: shippedBundle,
    args: firstCase,
  },
  ...(
    [
      ["the whole bundle", /packages\//, "all"],
      ["  @modelhub/inference", /packages\/inference\//, "inference"],
      ["  @modelhub/snippets code", /packages\/snippets\/(?!src\/templates\.generated)/, "snippets"],
      ["  snippets templates", /packages\/snippets\/src\/templates\.generated/, "templates"],
      ["  @modelhub/tasks", /packages\/tasks\//, "tasks"],
    ] as const
  ).map(([what, part, name]) => ({
    label: `parse only: ${what}`,
    mode: "import" as const,
    specifier: parseOnly(shippedBundle, part, name),
  })),
  ...importOnly,
];

const results = new Map<string, ColdResult[]>(variants.map((v) => [v.label, []]));
for (let run = 0; run < RUNS; run++) {
  for (const v of variants) results.get(v.label)!.push(coldRun(v.mode, v.specifier, v.args));
}

/** CPU ms of the import and of the first call. */
const cpuSplit = (runs: ColdResult[]) => {
  const importCpu = median(runs.map((x) => x.importCpuMs));
  const afterImport = runs.map((x) =>
    x.totalCpuMs !== undefined ? x.totalCpuMs - x.importCpuMs : undefined,
  );
  return afterImport[0] === undefined
    ? importCpu.toFixed(1)
    : `${importCpu.toFixed(1)} + ${median(afterImport as number[]).toFixed(1)}`;
};
const ms = (values: (number | undefined)[]) =>
  values[0] === undefined ? "-" : median(values as number[]).toFixed(1);
console.log(`cold start of @modelhub/snippets, fresh node process, median of ${RUNS} (ms)`);
console.log(
  "                                          bundle  import  1st call  2nd call   total  CPU import + 1st call",
);
for (const v of variants) {
  const r = results.get(v.label)!;
  const firstCall = r.map((x) => x.firstCallMs);
  const secondCall = r.map((x) => x.secondCallMs);
  console.log(
    `${v.label.padEnd(40)} ${fileKb(v.specifier).padStart(7)}  ${ms(r.map((x) => x.importMs)).padStart(6)}  ${ms(firstCall).padStart(8)}  ${ms(secondCall).padStart(8)}  ${ms(r.map((x) => x.totalMs)).padStart(6)}  ${cpuSplit(r).padStart(22)}`,
  );
}

console.log("");
console.log(
  '("parse only": that part of the shipped bundle wrapped in a function that is never called, so V8 parses it and nothing runs; the empty module is the baseline of every import row)',
);
console.log("");
console.log("bundle composition (KB of output)");
const shipped = await composition(OURS);
for (const key of [...shipped.keys()].sort((a, b) => shipped.get(b)! - shipped.get(a)!)) {
  console.log(`${key.padEnd(36)} ${(shipped.get(key)! / 1024).toFixed(1).padStart(6)}`);
}
console.log(
  `@modelhub/jinja in the shipped bundle: ${((shipped.get("jinja") ?? 0) / 1024).toFixed(1)} KB (templates are compiled at build time)`,
);

rmSync(dir, { recursive: true, force: true });
