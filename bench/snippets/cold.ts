/** Fresh-process measurements: bundles built with esbuild, each run a new `node` running cold-child.mjs. */
import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

export const benchDir = fileURLToPath(new URL("..", import.meta.url));
export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const childScript = fileURLToPath(new URL("./cold-child.mjs", import.meta.url));

export type ColdMode = "ours" | "theirs" | "import";

export interface ColdResult {
  importMs: number;
  /** CPU time (user + system, all threads) of the import, and of import + first call. */
  importCpuMs: number;
  totalCpuMs?: number;
  firstCallMs?: number;
  totalMs?: number;
  secondCallMs?: number;
  snippets?: number;
}

/** Bundles `contents` (an ES module importing workspace packages by name) into one file for node. */
export async function bundle(contents: string, outfile: string): Promise<string> {
  await build({
    stdin: { contents, resolveDir: benchDir, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    conditions: ["source"],
    outfile,
    logLevel: "silent",
  });
  return pathToFileURL(outfile).href;
}

export function fileKb(url: string): string {
  return `${(statSync(fileURLToPath(url)).size / 1024).toFixed(0)} KB`;
}

export function coldRun(mode: ColdMode, specifier: string, args: unknown[] = []): ColdResult {
  const out = execFileSync(process.execPath, [childScript, mode, specifier, JSON.stringify(args)], {
    cwd: benchDir,
    encoding: "utf8",
  });
  return JSON.parse(out) as ColdResult;
}
