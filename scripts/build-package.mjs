// Builds the package in the current directory for publishing (its `build` script runs this):
//
//   - every `exports` entry with both a `source` and an `import` target becomes one bundled ESM file at its
//     `import` path (esbuild, not minified: the user's bundler minifies). Code two entries share goes to a
//     chunk of its own, so a module's state and classes exist once even when a program imports both.
//     Dependencies and peer dependencies stay imports; so do node: builtins.
//   - tsc writes the declarations next to them (`types` targets), from the package's tsconfig.build.json.
//   - `--asset path` (relative to the package): a file the code reads at run time or imports (a large JSON
//     table). It is copied to the output directory under its own name, and an import of it stays an import
//     of that copy instead of being inlined, so the package carries it once.
//   - `--inline name` (a workspace dependency): its imports (`name`, `name/*`) are bundled from its sources
//     instead of staying imports, tree-shaken to what this package uses. For a package whose cold start
//     is the point (the snippet generator: one file to resolve and compile instead of seven across three
//     packages). The inlined code is a second copy of that part of the dependency: only stateless code
//     may be inlined, and its error classes are then told apart by their `isInstance` brand, not by
//     `instanceof` (docs/decisions/package-bundles.md). The dependency stays in `dependencies`: the
//     declarations still import its types.
//
// The output directory is emptied first, so a pack never carries a file an earlier build left.
// Why esbuild: docs/decisions/package-bundles.md.
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve } from "node:path";
import { build } from "esbuild";

const dir = process.cwd();
const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
const args = process.argv.slice(2);
const optionValues = (name) => args.flatMap((arg, i) => (args[i - 1] === name ? [arg] : []));
const assets = optionValues("--asset").map((path) => resolve(dir, path));
const inlined = new Set(optionValues("--inline"));
const declared = { ...manifest.dependencies, ...manifest.peerDependencies };
for (const name of inlined) {
  if (!(name in declared)) throw new Error(`build: --inline ${name} is not a dependency of ${manifest.name}`);
}

/** `exports` entries this build produces: name (for the output file) -> source. */
const entryPoints = {};
let outdir;
for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
  if (typeof target !== "object" || !target.source || !target.import) continue;
  const out = target.import.replace(/^\.\//, "");
  const outDirOfEntry = dirname(out);
  outdir ??= outDirOfEntry.split("/")[0];
  entryPoints[relative(outdir, out).replace(/\.js$/, "")] = target.source;
  if (!out.startsWith(`${outdir}/`)) throw new Error(`build: ${subpath} builds outside ${outdir}/`);
}
if (!outdir) throw new Error(`build: ${manifest.name} has no export with both "source" and "import"`);

rmSync(join(dir, outdir), { recursive: true, force: true });

/** Imports of an `--asset` file become imports of its copy beside the bundled files. */
const assetsStayFiles = {
  name: "assets-stay-files",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, ({ path, resolveDir }) => {
      if (!path.startsWith(".")) return undefined;
      const file = resolve(resolveDir, path);
      return assets.includes(file) ? { path: `./${basename(file)}`, external: true } : undefined;
    });
  },
};

const external = Object.keys(declared)
  .filter((name) => !inlined.has(name))
  .flatMap((name) => [name, `${name}/*`]);

await build({
  entryPoints,
  outdir: join(dir, outdir),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  // Kept on the imports that stay imports (an `--asset` JSON needs its `with { type: "json" }`).
  supported: { "import-attributes": true },
  external: [...external, "node:*"],
  // An inlined dependency is bundled from its TypeScript sources (its `source` export condition), so its
  // build need not be fresh and it is tree-shaken as this package's own code is.
  conditions: inlined.size > 0 ? ["source"] : [],
  chunkNames: "chunk-[hash]",
  // The JSX of a React entry (the widget's) compiles to the automatic runtime, as tsc does.
  jsx: "automatic",
  plugins: [assetsStayFiles],
  logLevel: "warning",
});

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(
  process.execPath,
  [tsc, "-p", "tsconfig.build.json", "--emitDeclarationOnly", "--declarationMap", "false"],
  {
    cwd: dir,
    stdio: "inherit",
  },
);

for (const asset of assets) copyFileSync(asset, join(dir, outdir, basename(asset)));
