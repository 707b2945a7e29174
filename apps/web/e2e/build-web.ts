import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const WEB_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const WEB_DIST = join(WEB_ROOT, "dist");
const REPO_ROOT = resolve(WEB_ROOT, "../..");

/** Inputs of the production build: the app's sources and the workspace packages it bundles. */
const INPUTS = [
  join(WEB_ROOT, "src"),
  join(WEB_ROOT, "index.html"),
  join(WEB_ROOT, "public"),
  join(WEB_ROOT, "vite.config.ts"),
  join(WEB_ROOT, "build"),
  ...["tasks", "snippets", "inference", "jinja", "widget"].map((name) =>
    join(REPO_ROOT, "packages", name, "src"),
  ),
  join(REPO_ROOT, "packages", "snippets", "templates"),
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

export function isDistStale(): boolean {
  const index = join(WEB_DIST, "index.html");
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return INPUTS.some((input) => newestMtime(input) > built);
}

/**
 * Builds `apps/web/dist` with Vite unless it is newer than every input. A child process with
 * NODE_ENV=production: inside Vitest (NODE_ENV=test) Vite would bundle React's development build.
 */
export function buildWebIfStale(): boolean {
  if (!isDistStale()) return false;
  const vitePackage = createRequire(join(WEB_ROOT, "package.json")).resolve("vite/package.json");
  const viteBin = join(dirname(vitePackage), "bin", "vite.js");
  execFileSync(process.execPath, [viteBin, "build", "--logLevel", "warn"], {
    cwd: WEB_ROOT,
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return true;
}
