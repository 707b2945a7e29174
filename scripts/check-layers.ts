/**
 * Keeps the hub's layers apart (docs/decisions/domain-folders.md): routes parse and answer, services decide
 * and act, and tables and blob stores are reached only from services. Reads the import graph of
 * apps/hub/src the way check-import-cycles.ts does (every import, type-only ones too: a route that names a
 * table's types is already written against the table) and fails on:
 *
 * 1. A route module importing a table module, the store, or a blob store.
 *    - Route module: a module of apps/hub/src (tests `*.test.ts` and `__fixtures__/` aside) that is named
 *      `*-routes.ts`, or that registers Hono routes by any name: it constructs an app (`new Hono`), or calls
 *      get/post/put/patch/delete/all/on/route/use/notFound/onError on a parameter or variable declared with
 *      the type `Hono<…>`. The composition root (COMPOSITION_ROOTS: `createApp`, which hands the store's
 *      tables to the services it builds) is the one exception.
 *    - Table module: `*-table.ts`, or one of QUERY_MODULES (modules that own SQL or stand for the tables
 *      without that name). Store: anything under `store/` (the driver, migrations, the `Store` aggregate);
 *      none is pure types a route would need. Blob store: `storage/*blob-store*`.
 * 2. A module of one domain (the first folder under apps/hub/src: `accounts/`, `repos/`, …) importing a
 *    table module of another domain. It may import the other domain's service. `store/` is infrastructure:
 *    its aggregate binds every table, and its own tables (meta-table.ts) are shared.
 *
 *   node --import tsx scripts/check-layers.ts        (part of `npm run lint`)
 *
 * Exits 1 on a violation not listed in ALLOWED, and on a listed one that no longer occurs: the list stays
 * exact, so it only shrinks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const HUB_SRC = join(ROOT, "apps", "hub", "src");

/** Modules that own SQL or stand for tables without being named `*-table.ts`. Paths under apps/hub/src. */
export const QUERY_MODULES = new Set([
  "accounts/accounts-store.ts",
  "accounts/sql-accounts-store.ts",
  "catalogue/catalogue.ts",
  "repos/blob-references.ts",
  "repos/repos-listing.ts",
  "router/usage-by-account.ts",
  "router/usage-reports.ts",
]);

/** Where the app is assembled: it may hold the store to build the services (app.ts's createApp). */
export const COMPOSITION_ROOTS = new Set(["app.ts"]);

/** Top-level folders that are shared infrastructure, not domains. */
const INFRASTRUCTURE = new Set(["store", "storage", "http", "api"]);

/**
 * Folders that are one domain. `auth/` turns the accounts' credentials into actors and checks what they
 * may do, reading the accounts through their store interface: it is the accounts domain, in a folder of
 * its own so that the one authorize() is easy to find.
 */
const DOMAIN_OF_FOLDER: Record<string, string> = { auth: "accounts" };

/**
 * Violations accepted for now, as `module -> imported`, each with why it is still there (none today). A
 * listed violation that no longer occurs fails the check: remove its line.
 */
export const ALLOWED: Record<string, string> = {};

const ROUTE_METHODS = new Set([
  "get",
  "post",
  "put",
  "patch",
  "delete",
  "all",
  "on",
  "route",
  "use",
  "notFound",
  "onError",
]);

export interface HubModule {
  /** Path under apps/hub/src, with `/`. */
  path: string;
  /** Hub modules it imports (paths under apps/hub/src). */
  imports: string[];
  /** It registers Hono routes (see the header). */
  registersRoutes: boolean;
}

export interface Violation {
  module: string;
  imports: string;
  rule:
    | "route imports a table"
    | "route imports the store"
    | "route imports a blob store"
    | "other domain's table";
}

export const violationKey = (violation: Pick<Violation, "module" | "imports">) =>
  `${violation.module} -> ${violation.imports}`;

export function isTableModule(path: string): boolean {
  return path.endsWith("-table.ts") || QUERY_MODULES.has(path);
}

export function isBlobStore(path: string): boolean {
  return path.startsWith("storage/") && path.includes("blob-store");
}

export function isStoreModule(path: string): boolean {
  return path.startsWith("store/");
}

export function isRouteModule(module: HubModule): boolean {
  if (COMPOSITION_ROOTS.has(module.path)) return false;
  return module.path.endsWith("-routes.ts") || module.registersRoutes;
}

/** The domain folder of a module, or undefined for infrastructure and top-level modules. */
export function domainOf(path: string): string | undefined {
  const slash = path.indexOf("/");
  if (slash < 0) return undefined;
  const folder = path.slice(0, slash);
  return INFRASTRUCTURE.has(folder) ? undefined : (DOMAIN_OF_FOLDER[folder] ?? folder);
}

export function findLayerViolations(modules: readonly HubModule[]): Violation[] {
  const found: Violation[] = [];
  for (const module of modules) {
    const route = isRouteModule(module);
    const domain = domainOf(module.path);
    for (const imported of module.imports) {
      if (route && isTableModule(imported)) {
        found.push({ module: module.path, imports: imported, rule: "route imports a table" });
      } else if (route && isStoreModule(imported)) {
        found.push({ module: module.path, imports: imported, rule: "route imports the store" });
      } else if (route && isBlobStore(imported)) {
        found.push({ module: module.path, imports: imported, rule: "route imports a blob store" });
      } else if (
        isTableModule(imported) &&
        domain !== undefined &&
        domainOf(imported) !== undefined &&
        domainOf(imported) !== domain
      ) {
        found.push({ module: module.path, imports: imported, rule: "other domain's table" });
      }
    }
  }
  return found;
}

/** Violations not allowed, and allowed ones that no longer occur (both fail the check). */
export function compareWithAllowed(
  violations: readonly Violation[],
  allowed: Record<string, string>,
): { unexpected: Violation[]; gone: string[] } {
  const keys = new Set(violations.map(violationKey));
  return {
    unexpected: violations.filter((violation) => !(violationKey(violation) in allowed)),
    gone: Object.keys(allowed).filter((key) => !keys.has(key)),
  };
}

/** Whether the module's source registers Hono routes (see the header). */
export function registersHonoRoutes(fileName: string, text: string): boolean {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const honoTyped = new Set<string>();
  let registers = false;
  const isHonoType = (type: ts.TypeNode | undefined) =>
    type !== undefined &&
    ts.isTypeReferenceNode(type) &&
    ts.isIdentifier(type.typeName) &&
    type.typeName.text === "Hono";
  const collect = (node: ts.Node): void => {
    if ((ts.isParameter(node) || ts.isVariableDeclaration(node)) && ts.isIdentifier(node.name)) {
      if (isHonoType(node.type)) honoTyped.add(node.name.text);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "Hono") {
      registers = true;
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  if (registers || honoTyped.size === 0) return registers;
  const calls = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      honoTyped.has(node.expression.expression.text) &&
      ROUTE_METHODS.has(node.expression.name.text)
    ) {
      registers = true;
    }
    if (!registers) ts.forEachChild(node, calls);
  };
  calls(source);
  return registers;
}

function listModules(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "__fixtures__" || name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listModules(path, out);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts") && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const stem = resolve(dirname(from), specifier).replace(/\.(js|mjs|ts|tsx)$/, "");
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(stem, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The hub's modules (tests and fixtures aside) with their imports inside apps/hub/src. */
export function readHubModules(srcDir: string = HUB_SRC): HubModule[] {
  const under = (file: string) => relative(srcDir, file).split(sep).join("/");
  return listModules(srcDir).map((file) => {
    const text = readFileSync(file, "utf8");
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((imported) => resolveRelative(file, imported.fileName))
      .filter((target): target is string => target?.startsWith(srcDir + sep) === true)
      .map(under);
    return {
      path: under(file),
      imports: [...new Set(imports)],
      registersRoutes: registersHonoRoutes(file, text),
    };
  });
}

function main(): void {
  const violations = findLayerViolations(readHubModules());
  const { unexpected, gone } = compareWithAllowed(violations, ALLOWED);
  for (const violation of unexpected) {
    process.stdout.write(`layer violation (${violation.rule}): ${violationKey(violation)}\n`);
  }
  for (const key of gone) {
    process.stdout.write(
      `allowed violation is gone, remove it from ALLOWED in scripts/check-layers.ts: ${key}\n`,
    );
  }
  const failed = unexpected.length > 0 || gone.length > 0;
  if (failed) {
    process.stdout.write(
      "Routes call services; tables and blob stores are reached only from services (docs/decisions/domain-folders.md).\n",
    );
  } else {
    process.stdout.write(
      `layers: routes reach no table or blob store, no domain another's tables (${violations.length} allowed)\n`,
    );
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
