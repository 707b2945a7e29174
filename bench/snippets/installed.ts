/**
 * @modelhub/snippets as a user installs it: the stale packages built (scripts/build.mjs --if-stale), the
 * generator and its production dependencies packed with `npm pack` and extracted into `<dir>/node_modules`,
 * so the cold runs resolve and load exactly what the tarballs ship (not the workspace links or sources).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./cold.js";

/** @modelhub/snippets and its production dependencies, dependencies first. */
const WORKSPACES = ["packages/tasks", "packages/inference", "packages/snippets"];

export interface InstalledApp {
  dir: string;
  /** `name@version` of each package installed. */
  packages: string[];
}

export function installPacked(dir: string): InstalledApp {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale", ...WORKSPACES], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const tarballs = join(dir, "tarballs");
  mkdirSync(tarballs, { recursive: true });
  const packed = JSON.parse(
    execFileSync(
      "npm",
      ["pack", "--json", "--pack-destination", tarballs, ...WORKSPACES.flatMap((w) => ["-w", w])],
      { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
    ),
  ) as { name: string; version: string; filename: string }[];
  const app = join(dir, "app");
  for (const { name, filename } of packed) {
    const target = join(app, "node_modules", name);
    mkdirSync(target, { recursive: true });
    execFileSync("tar", ["-xzf", join(tarballs, filename), "-C", target, "--strip-components=1"]);
  }
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  return { dir: app, packages: packed.map(({ name, version }) => `${name}@${version}`) };
}

/**
 * The files a fresh Node loads from the app for `import("@modelhub/snippets")`: count and bytes, as its
 * loader sees them (a `load` hook registered before the import records every file: URL).
 */
export function loadedModules(app: string): { count: number; bytes: number } {
  const hook = [
    "let port;",
    "export async function initialize(data) { port = data.port; }",
    "export async function load(url, context, next) { if (url.startsWith('file:')) port.postMessage(url); return next(url, context); }",
  ].join("\n");
  const script = [
    'import { register } from "node:module";',
    'import { readFileSync } from "node:fs";',
    'import { fileURLToPath } from "node:url";',
    'import { MessageChannel } from "node:worker_threads";',
    "const { port1, port2 } = new MessageChannel();",
    "const urls = new Set();",
    "port1.on('message', (url) => urls.add(url));",
    `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)}, { data: { port: port2 }, transferList: [port2] });`,
    'await import("@modelhub/snippets");',
    "await new Promise((resolve) => setTimeout(resolve, 100));",
    "port1.close();",
    "let bytes = 0; for (const url of urls) bytes += readFileSync(fileURLToPath(url)).length;",
    "process.stdout.write(JSON.stringify({ count: urls.size, bytes }));",
  ].join("\n");
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: app,
    encoding: "utf8",
  });
  return JSON.parse(out) as { count: number; bytes: number };
}

/** The installed entry's path, for the size column. */
export function installedEntry(app: string): string {
  const manifest = JSON.parse(
    readFileSync(join(app, "node_modules/@modelhub/snippets/package.json"), "utf8"),
  ) as { exports: { ".": { import: string } } };
  return join(app, "node_modules/@modelhub/snippets", manifest.exports["."].import);
}
