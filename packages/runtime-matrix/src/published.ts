/**
 * The packages as a user installs them: built, packed with `npm pack` (so only what `files` and `exports`
 * ship), and extracted into `<app>/node_modules/<name>`, beside the smoke program. No runtime sees the
 * sources or the workspace links.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SMOKE_DIR = fileURLToPath(new URL("../smoke/", import.meta.url));

/** The published packages the matrix runs, dependencies first. */
export const PUBLISHED_WORKSPACES = [
  "packages/tasks",
  "packages/jinja",
  "packages/inference",
  "packages/snippets",
];

export interface PublishedApp {
  /** A directory with package.json, node_modules/@modelhub/* (from the tarballs) and smoke/checks.mjs. */
  dir: string;
  /** `name@version` of each package installed, from its packed package.json. */
  packages: string[];
}

interface PackResult {
  name: string;
  version: string;
  filename: string;
}

/** Builds the stale packages (as `npm start` does), packs them and installs the tarballs into a new app. */
export function preparePublishedApp(): PublishedApp {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale", ...PUBLISHED_WORKSPACES], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const dir = mkdtempSync(join(tmpdir(), "runtime-matrix-"));
  const tarballs = join(dir, "tarballs");
  mkdirSync(tarballs);
  const packed = JSON.parse(
    execFileSync(
      "npm",
      ["pack", "--json", "--pack-destination", tarballs, ...PUBLISHED_WORKSPACES.flatMap((w) => ["-w", w])],
      { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    ),
  ) as PackResult[];
  for (const { name, filename } of packed) {
    const target = join(dir, "node_modules", name);
    mkdirSync(target, { recursive: true });
    // A tarball's entries are all under package/: npm install strips that level the same way.
    execFileSync("tar", ["-xzf", join(tarballs, filename), "-C", target, "--strip-components=1"]);
  }
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "runtime-matrix-app", private: true, type: "module" }, null, 2)}\n`,
  );
  mkdirSync(join(dir, "smoke"));
  copyFileSync(join(SMOKE_DIR, "checks.mjs"), join(dir, "smoke", "checks.mjs"));
  return { dir, packages: packed.map(({ name, version }) => `${name}@${version}`) };
}
