// Installs Node 22 for the runtime matrix into node22/, apart from the workspaces: its registry package
// (node-<platform>-<arch>) has a `node` bin, which in the root node_modules/.bin would replace the machine's
// Node in every npm script. Run as this workspace's postinstall; does nothing when the locked version is there.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const prefix = fileURLToPath(new URL("./node22/", import.meta.url));
const lock = JSON.parse(readFileSync(join(prefix, "package-lock.json"), "utf8"));
const platformPackage = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`;
const locked = lock.packages[`node_modules/${platformPackage}`];
const installed = join(prefix, "node_modules", platformPackage, "package.json");

if (!locked) {
  process.stderr.write(`runtime-matrix: the registry has no Node 22 for ${platformPackage}; not installed\n`);
} else if (!existsSync(installed) || JSON.parse(readFileSync(installed, "utf8")).version !== locked.version) {
  // The parent install's npm_config_* settings (workspace filters, --save-dev...) are not this install's.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: prefix,
    env,
    stdio: "inherit",
  });
  process.exitCode = result.status ?? 1;
}
