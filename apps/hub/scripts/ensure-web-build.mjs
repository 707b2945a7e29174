// Builds the web app (npm run build -w apps/web) when apps/web/dist is missing or older than any source it
// is built from, so that `npm start` on a fresh clone serves an up-to-date front end.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const web = join(root, "apps", "web");
const builtIndex = join(web, "dist", "index.html");

/** Newest modification time under `path` (files only; node_modules and dist skipped). */
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

const sources = [
  join(web, "src"),
  join(web, "public"),
  join(web, "index.html"),
  join(web, "package.json"),
  ...readdirSync(web)
    .filter((name) => /^vite\.config\./.test(name))
    .map((name) => join(web, name)),
  ...readdirSync(join(root, "packages")).map((name) => join(root, "packages", name, "src")),
];
const builtAt = existsSync(builtIndex) ? statSync(builtIndex).mtimeMs : 0;
const sourcesAt = Math.max(...sources.map(newestMtime));

if (builtAt >= sourcesAt) {
  process.stdout.write("web app: apps/web/dist is up to date\n");
} else {
  process.stdout.write(
    `web app: ${builtAt ? "sources changed" : "not built yet"}; building (npm run build -w apps/web)\n`,
  );
  const result = spawnSync("npm", ["run", "build", "-w", "apps/web"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    process.stderr.write("web app: the build failed; the hub starts anyway and serves the API only\n");
  }
}
