/**
 * Keeps each published workspace honest about what it needs once installed: every package a module reachable
 * from its `exports` imports (at run time, or in the published types: type-only imports count) must be
 * one of its `dependencies` or `peerDependencies`. A devDependency is not installed for a user of the
 * package, nor in a release (`npm ci --omit=dev`), so an import of one breaks there and nowhere else.
 *
 *   node --import tsx scripts/check-package-deps.ts        (part of `npm run lint`)
 */
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The web app is bundled by Vite (its imports end up in its assets) and bench is never installed. */
const UNCHECKED = new Set(["apps/web", "bench"]);
const BUILTINS = new Set(builtinModules);

interface Manifest {
  name: string;
  exports?: Record<string, { source?: string; import?: string; default?: string }>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The module a relative specifier names: `./x.js` is written for `./x.ts` (or `.tsx`, or `./x/index.ts`). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ""));
  return [".ts", ".tsx", "/index.ts"].map((ext) => base + ext).find(existsSync);
}

/** Bare imports of every module reachable from `entries`, each with a module that imports it. */
function bareImports(entries: string[]): Map<string, string> {
  const found = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (specifier.startsWith(".")) {
        const target = resolveRelative(file, specifier);
        if (target) queue.push(target);
      } else if (!specifier.startsWith("node:") && !BUILTINS.has(specifier)) {
        const name = packageName(specifier);
        if (!found.has(name)) found.set(name, file);
      }
    }
  }
  return found;
}

const { workspaces } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  workspaces: string[];
};
const problems: string[] = [];
for (const workspace of workspaces.filter((w) => !UNCHECKED.has(w))) {
  const dir = join(ROOT, workspace);
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
  const entries = [
    // An export with only a `source` condition (e.g. `./testing`, for this repository's own tests) resolves
    // nowhere once installed: it is not published code.
    ...Object.values(manifest.exports ?? {})
      .filter((entry) => entry.import !== undefined || entry.default !== undefined)
      .map((entry) => entry.source),
    ...Object.values(manifest.bin ?? {}).map((bin) =>
      bin.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts"),
    ),
    // The hub's entry points are run, not imported.
    ...(workspace === "apps/hub" ? ["./src/server.ts", "./src/cli/main.ts"] : []),
  ]
    .filter((entry): entry is string => typeof entry === "string")
    .map((entry) => join(dir, entry))
    .filter(existsSync);
  const declaredNames = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ];
  // A type-only import of `hast` is answered by `@types/hast` (`@types/scope__name` for `@scope/name`).
  const typesFor = (name: string) =>
    name.startsWith("@types/") ? name.slice(7).replace(/^(.+)__(.+)$/, "@$1/$2") : undefined;
  const declared = new Set([
    ...declaredNames,
    ...declaredNames.map(typesFor).filter((name): name is string => name !== undefined),
  ]);
  for (const [name, importer] of bareImports(entries)) {
    if (name !== manifest.name && !declared.has(name)) {
      problems.push(
        `${workspace}: imports ${name} (${importer.slice(ROOT.length)}) without declaring it a dependency`,
      );
    }
  }
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join("\n")}\n`);
  process.exit(1);
}
process.stdout.write("package dependencies: every import of published code is declared\n");
