/**
 * Keeps the module import graph free of cycles: reads every TypeScript module of the workspaces, resolves
 * its imports (relative paths, and `@modelhub/<package>` to that package's src/index.ts), and reports every
 * strongly connected component of more than one module, or a module importing itself. Type-only imports
 * count too: a cycle of types still means two modules that cannot be read one after the other.
 *
 *   node --import tsx scripts/check-import-cycles.ts        (part of `npm run lint`)
 *
 * Exits 1 on a cycle that is not listed in KNOWN_CYCLES; a listed cycle that is gone is reported so its
 * entry can be removed (not a failure: whoever breaks a cycle need not touch this file the same day).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SCANNED = ["packages", "apps", "bench", "scripts"];
const SKIPPED_DIRS = new Set(["node_modules", "dist", ".venv", "coverage", "test-results", ".data", "data"]);

/**
 * Cycles known today, by their smallest module path, with who owns breaking them. Remove an entry once
 * the cycle is broken.
 */
const KNOWN_CYCLES: Record<string, string> = {};

function listModules(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name) || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listModules(path, out);
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** `@modelhub/<name>` to the package's source entry, from each workspace package.json. */
function workspaceEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(join(ROOT, group))) {
      const manifest = join(ROOT, group, name, "package.json");
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string };
      const entry = join(ROOT, group, name, "src", "index.ts");
      if (pkg.name && existsSync(entry)) entries.set(pkg.name, entry);
    }
  }
  return entries;
}

function resolveImport(from: string, specifier: string, packages: Map<string, string>): string | undefined {
  const entry = packages.get(specifier);
  if (entry) return entry;
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|ts|tsx)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Tarjan's strongly connected components, iteratively (no recursion limit on long chains). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && edges.includes(frame.node);
        if (component.length > 1 || selfLoop) found.push(component.sort());
      }
    }
  }
  return found;
}

export function findImportCycles(): string[][] {
  const packages = workspaceEntries();
  const graph = new Map<string, string[]>();
  for (const dir of SCANNED) {
    for (const file of listModules(join(ROOT, dir))) {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      const targets = importedFiles
        .map((imported) => resolveImport(file, imported.fileName, packages))
        .filter((target): target is string => target !== undefined);
      graph.set(file, [...new Set(targets)]);
    }
  }
  return cycles(graph).map((component) => component.map((file) => relative(ROOT, file)));
}

function main(): void {
  const found = findImportCycles();
  const keys = new Set(found.map((component) => component[0]!));
  let failed = false;
  for (const component of found) {
    const known = KNOWN_CYCLES[component[0]!];
    const label = known ? `known cycle (${known})` : "import cycle";
    process.stdout.write(`${label}, ${component.length} modules:\n  ${component.join("\n  ")}\n`);
    if (!known) failed = true;
  }
  for (const key of Object.keys(KNOWN_CYCLES)) {
    if (!keys.has(key)) {
      process.stdout.write(`listed cycle is gone, remove it from KNOWN_CYCLES: ${key}\n`);
    }
  }
  if (!failed) process.stdout.write(`import graph: no new cycle (${found.length} known)\n`);
  process.exitCode = failed ? 1 : 0;
}

main();
