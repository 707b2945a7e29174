#!/usr/bin/env node
// Type-checks every workspace that has a `typecheck` script, as many at once as the machine has cores.
// `npm run typecheck --workspaces` runs them one after another, and tsc uses one core: on CI's two cores that
// left one idle for about four minutes. Output is printed per workspace, whole, when it finishes.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const { workspaces } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const checked = workspaces.filter((dir) => {
  const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
  return Boolean(manifest.scripts?.typecheck);
});
// The largest programs first, so that the small ones fill in beside them.
const first = ["apps/hub", "apps/web", "bench"];
checked.sort((a, b) => rank(a) - rank(b));

function rank(dir) {
  const at = first.indexOf(dir);
  return at === -1 ? first.length : at;
}

function typecheck(dir) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npm", ["run", "typecheck", "--silent"], {
      cwd: join(root, dir),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(
        `typecheck ${dir}: ${code === 0 ? "ok" : `failed (exit ${code})`} in ${seconds} s\n${output}`,
      );
      resolve(code === 0);
    });
  });
}

const queue = [...checked];
const lanes = Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
  let ok = true;
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) ok = (await typecheck(dir)) && ok;
  return ok;
});
const results = await Promise.all(lanes);
if (results.includes(false)) {
  process.stderr.write(
    "typecheck: some workspaces have type errors (above); fix them and run `npm run typecheck` again\n",
  );
  process.exit(1);
}
