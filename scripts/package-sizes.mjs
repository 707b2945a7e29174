// The size of each published entry as a user's bundle receives it: the entry's built files and every module
// of the package they import (dependencies left out, as they are counted in their own package), bundled
// and minified by esbuild, then gzipped (level 9); and how many of the package's modules importing the
// entry loads.
//
//   node scripts/package-sizes.mjs                       every published package's dist/ (build first)
//   node scripts/package-sizes.mjs --dist-root=/tmp/old  the dist/ copies in /tmp/old/<package dir name>/
//
// The figures in each package's README come from this script.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../", import.meta.url));
const PUBLISHED = [
  "packages/jinja",
  "packages/tasks",
  "packages/inference",
  "packages/snippets",
  "packages/widget",
];
const distRoot = process.argv.find((arg) => arg.startsWith("--dist-root="))?.slice("--dist-root=".length);

for (const workspace of PUBLISHED) {
  const dir = join(root, workspace);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const deps = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
  console.log(manifest.name);
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== "object" || !target.import) continue;
    const file = distRoot
      ? join(distRoot, workspace.split("/")[1], target.import.replace(/^\.\/dist\//, ""))
      : join(dir, target.import);
    if (!existsSync(file)) {
      console.log(`  ${subpath.padEnd(18)} (not built: ${file})`);
      continue;
    }
    const result = await build({
      entryPoints: [file],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      external: [...deps.flatMap((name) => [name, `${name}/*`]), "node:*"],
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const code = result.outputFiles[0].contents;
    const modules = Object.keys(result.metafile.inputs).length;
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(
      `  ${subpath.padEnd(18)} ${(code.length / 1024).toFixed(1).padStart(7)} KB min ${(gzipped / 1024).toFixed(1).padStart(6)} KB gzip  ${String(modules).padStart(3)} modules`,
    );
  }
}
