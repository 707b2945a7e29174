// Builds the workspaces that have a build script, in the root package.json's order (dependencies first), and
// stamps each `dist/` when its build succeeds.
//
//   node scripts/build.mjs                 build every workspace
//   node scripts/build.mjs --if-stale      only those whose dist is missing or older than their sources
//   node scripts/build.mjs --if-stale apps/web   the same, for the named workspaces only
//
// `npm start` runs it with --if-stale, so a fresh clone builds once and an edited source is rebuilt.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const STAMP = ".build-stamp";

/** Newest modification time under `path` (files only; node_modules, dist and dot-files skipped). */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry === "dist" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/**
 * What a workspace's build reads: its own files, for the web app the packages' sources it bundles, and for
 * a package built with `--inline <dependency>` (scripts/build-package.mjs) that dependency's sources.
 */
function sourcesOf(workspace) {
  const dir = join(root, workspace);
  const own = readdirSync(dir)
    .filter((name) => name !== "node_modules" && name !== "dist" && !name.startsWith("."))
    .map((name) => join(dir, name));
  if (workspace === "apps/web") {
    const packages = readdirSync(join(root, "packages")).map((name) => join(root, "packages", name, "src"));
    return [...own, ...packages];
  }
  const build = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).scripts?.build ?? "";
  const inlined = [...build.matchAll(/--inline\s+(\S+)/g)].map((match) => workspaceOf(match[1]));
  return [...own, ...inlined.map((other) => join(root, other, "src"))];
}

/** The workspace directory of a workspace package's name. */
function workspaceOf(packageName) {
  const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const found = workspaces.find(
    (workspace) =>
      JSON.parse(readFileSync(join(root, workspace, "package.json"), "utf8")).name === packageName,
  );
  if (!found) throw new Error(`build: --inline ${packageName} is not a workspace package`);
  return found;
}

function isStale(workspace) {
  const stamp = join(root, workspace, "dist", STAMP);
  if (!existsSync(stamp)) return true;
  return Math.max(...sourcesOf(workspace).map(newestMtime)) > statSync(stamp).mtimeMs;
}

const args = process.argv.slice(2);
const ifStale = args.includes("--if-stale");
const named = args.filter((arg) => !arg.startsWith("--"));
const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const buildable = workspaces.filter((workspace) => {
  const manifest = JSON.parse(readFileSync(join(root, workspace, "package.json"), "utf8"));
  return manifest.scripts?.build && (named.length === 0 || named.includes(workspace));
});
const toBuild = ifStale ? buildable.filter(isStale) : buildable;

if (toBuild.length === 0) {
  process.stderr.write("build: up to date\n");
} else {
  process.stderr.write(`build: ${toBuild.join(", ")}\n`);
  for (const workspace of toBuild) {
    const result = spawnSync("npm", ["run", "build", "--silent", "-w", workspace], {
      cwd: root,
      stdio: "inherit",
    });
    if (result.status !== 0) {
      process.stderr.write(`build: ${workspace} failed\n`);
      process.exit(result.status ?? 1);
    }
    writeFileSync(join(root, workspace, "dist", STAMP), `${new Date().toISOString()}\n`);
  }
}
