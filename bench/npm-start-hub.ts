/**
 * The hub of the product benchmarks (bench:repos, bench:hub, bench:api; bench:router and bench:mirror take
 * its arguments), started exactly as `npm start` starts it: the
 * same build step, the same node options, the built server (`apps/hub/dist/server.js`), configured only
 * through the environment variables a user sets (config.ts). A benchmark of a hub started in-process or from
 * the TypeScript sources measures another program (issue 42). scripts/npm-start-hub.test.ts fails when these
 * steps drift from the root package.json's `start` script.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * The checkout whose hub is measured: this one, or `BENCH_REPO_ROOT` (e.g. a `git archive` of a commit, away
 * from a working tree others are editing, or the commit before a change for a before/after run).
 */
export const HUB_ROOT = process.env.BENCH_REPO_ROOT ?? REPO_ROOT;

/** `npm start`, step by step: the node arguments of each `node ...` command of the root `start` script. */
export const NPM_START_STEPS = {
  build: ["scripts/build.mjs", "--if-stale"],
  server: ["--max-semi-space-size=64", "--heap-growing-percent=100", "apps/hub/dist/server.js"],
} as const;

/** `npm start`'s build step, run in `root` (this checkout, or another one a benchmark compares). */
export function buildAsNpmStart(root: string = HUB_ROOT): void {
  execFileSync(process.execPath, [...NPM_START_STEPS.build], { cwd: root, stdio: "inherit" });
}

/**
 * The node arguments `npm start` runs the hub with, the built server taken from `root`: for benchmarks that
 * start their hubs with their own process helpers (bench:router, bench:mirror) and must not drift either.
 * `extraNodeFlags` is for profiling runs (`--cpu-prof`), never for a measured one.
 */
export function npmStartServerArgs(root: string, extraNodeFlags: readonly string[] = []): string[] {
  const options = NPM_START_STEPS.server.slice(0, -1);
  const entry = NPM_START_STEPS.server.at(-1)!;
  return [...options, ...extraNodeFlags, join(root, entry)];
}

/** The settings a benchmark may give the hub: environment variables of the hub's configuration (config.ts). */
export interface HubSettings {
  ADMIN_TOKEN: string;
  PROVIDER_BASE_URLS?: string;
  LOG_LEVEL?: "debug" | "info" | "warn" | "error";
  /** `x-accel`: the hub answers downloads with X-Accel-Redirect for nginx in front (bench:repos' offload row). */
  DOWNLOAD_OFFLOAD?: "x-accel";
}

export interface NpmStartHub {
  url: string;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** The hub's settings in a benchmark: a fresh data directory, a free port on loopback, and `settings`. */
export function hubSettingsEnvironment(dataDir: string, settings: HubSettings): Record<string, string> {
  return { DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "warn", ...settings };
}

/** Where and how a benchmark's hub runs, beyond its settings. */
export interface NpmStartHubOptions {
  /** The checkout whose built hub runs (default: BENCH_REPO_ROOT or this one). */
  root?: string;
  /** A directory for a `--cpu-prof` profile (a profiling run, not a measured one; default: BENCH_CPU_PROF). */
  cpuProfileDir?: string;
}

/**
 * Builds what is stale and starts the hub as `npm start` does, on a fresh data directory; resolves once it
 * prints its address.
 */
export async function startNpmStartHub(
  settings: HubSettings,
  { root = HUB_ROOT, cpuProfileDir = process.env.BENCH_CPU_PROF }: NpmStartHubOptions = {},
): Promise<NpmStartHub> {
  buildAsNpmStart(root);
  const dataDir = mkdtempSync(join(tmpdir(), "modelhub-bench-hub-"));
  const profile = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [];
  const child = spawn(process.execPath, npmStartServerArgs(root, profile), {
    cwd: root,
    // The caller's environment, as `npm start` inherits it, with the hub's settings over it.
    env: { ...process.env, ...hubSettingsEnvironment(dataDir, settings) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) =>
      reject(new Error(`the hub (npm start) in ${root} exited with ${code} before listening`)),
    );
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const running = /^Modelhub is running at (\S+)/.exec(line);
      if (running) resolve(running[1]!);
    });
  });
  return {
    url: url.replace(/\/$/, ""),
    pid: child.pid!,
    dataDir,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
