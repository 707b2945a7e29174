// What `npm pack` ships of each published package, checked as a user installs it (part of `npm test`):
//
//   - publint (strict) finds nothing to say about the unpacked tarball;
//   - the tarball holds only what the package needs: package.json, README, LICENSE, and the files under
//     the directories its `files` names (for the built packages, dist/), no tests, fixtures or maps;
//   - every `exports` target other than the workspace-only `source` condition is in it, `types` comes
//     before `import`, and every relative import inside a packed module resolves to a packed file;
//   - its types resolve and type-check from a consumer under `moduleResolution` node16 (an .mts file) and
//     bundler, with no @types/node and no `source` condition;
//   - importing every entry in Node reads no `process.env` (a throwing proxy replaces it);
//   - a program using part of an entry gets from the published files no more than its budget, and no more
//     than from the sources (a user's bundler must drop from dist/ what it drops from src/).
//
// The stale packages are built first (as `npm start` does). Takes seconds: one pack and two tsc programs.
//   node scripts/check-packs.mjs
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import ts from "typescript";

const root = fileURLToPath(new URL("../", import.meta.url));
/** The published packages (provider-sim and runtime-matrix are private). */
const PUBLISHED = [
  "packages/tasks",
  "packages/jinja",
  "packages/inference",
  "packages/snippets",
  "packages/widget",
];
/**
 * Programs that use part of a published entry, and the most their bundle may weigh (esbuild bundle and
 * minify for the browser, dependencies included, gzip -9). The chat-only program is bench:inference's
 * bundle line; its budget is issue 41's "< 10 KB".
 */
const BUNDLE_BUDGETS = [
  {
    name: "@modelhub/inference, chatCompletion only",
    program:
      'import { chatCompletion } from "@modelhub/inference";\nexport const run = (u) => chatCompletion({ endpointUrl: u, messages: [{ role: "user", content: "hi" }] });\n',
    maxGzipBytes: 10 * 1024,
  },
];
/** Bytes the published files may weigh over the sources (module glue the sources do not have). */
const PUBLISHED_OVER_SOURCES = 64;
/** Files a package may carry besides its `files` directories (npm adds these itself). */
const ALWAYS = new Set(["package.json", "README.md", "LICENSE"]);
const NEVER = [
  /\.test\.[cm]?[jt]sx?$/,
  /(^|\/)__fixtures__\//,
  /\.map$/,
  /(^|\/)\.build-stamp$/,
  /\.tsbuildinfo$/,
];

const problems = [];
const problem = (pkg, message) => problems.push(`${pkg}: ${message}`);

const built = spawnSync(process.execPath, [join(root, "scripts/build.mjs"), "--if-stale", ...PUBLISHED], {
  cwd: root,
  stdio: "inherit",
});
if (built.status !== 0) process.exit(built.status ?? 1);

const work = mkdtempSync(join(tmpdir(), "check-packs-"));
try {
  const packed = JSON.parse(
    execFileSync(
      "npm",
      ["pack", "--json", "--pack-destination", work, ...PUBLISHED.flatMap((workspace) => ["-w", workspace])],
      { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
    ),
  );
  const app = join(work, "app");
  const entries = [];
  for (const { name, filename, files } of packed) {
    const installed = join(app, "node_modules", name);
    mkdirSync(installed, { recursive: true });
    execFileSync("tar", ["-xzf", join(work, filename), "-C", installed, "--strip-components=1"]);
    const paths = new Set(files.map((file) => file.path));
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
    checkContents(name, manifest, paths);
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (checkExport(name, subpath, target, paths))
        entries.push({ specifier: posix.join(name, subpath), target });
    }
    checkRelativeImports(name, installed, paths);
    // pack: false: the directory is the unpacked tarball, every file in it is published.
    const linted = await publint({ pkgDir: installed, pack: false, strict: true });
    for (const message of linted.messages) {
      problem(name, `publint: ${formatMessage(message, linted.pkg, { color: false }) ?? message.code}`);
    }
  }
  linkOtherDependencies(app, packed);
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  checkTypes(app, entries);
  checkImportReadsNoEnv(app, entries);
  await checkBundleBudgets(app);
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`check-packs: ${problems.length} problem(s)\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`check-packs: ${PUBLISHED.length} packages packed, types and imports checked`);

/**
 * A user installs the packages' registry dependencies (the widget's hono, its optional peer react) with
 * them: linked here from the workspace's node_modules, with their `@types/` package when they have one.
 */
function linkOtherDependencies(app, packed) {
  const ours = new Set(packed.map(({ name }) => name));
  const wanted = new Set();
  for (const { name } of packed) {
    const manifest = JSON.parse(readFileSync(join(app, "node_modules", name, "package.json"), "utf8"));
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      if (!ours.has(dep)) wanted.add(dep);
    }
  }
  for (const dep of wanted) {
    for (const linked of [dep, `@types/${dep.replace(/^@([^/]+)\//, "$1__")}`]) {
      const source = join(root, "node_modules", linked);
      const target = join(app, "node_modules", linked);
      if (!existsSync(source) || existsSync(target)) continue;
      mkdirSync(join(target, ".."), { recursive: true });
      symlinkSync(source, target, "dir");
    }
  }
}

function checkContents(name, manifest, paths) {
  const allowed = (manifest.files ?? [])
    .filter((entry) => !entry.startsWith("!"))
    .map((entry) => entry.replace(/\/$/, ""));
  for (const path of paths) {
    if (ALWAYS.has(path)) continue;
    if (!allowed.some((dir) => path === dir || path.startsWith(`${dir}/`))) problem(name, `packs ${path}`);
    if (NEVER.some((pattern) => pattern.test(path))) problem(name, `packs ${path}, which no user needs`);
  }
}

/** Checks one `exports` entry; returns whether it is published (has targets outside `source`). */
function checkExport(name, subpath, target, paths) {
  if (typeof target !== "object" || target === null) {
    problem(name, `exports["${subpath}"] is not an object of conditions`);
    return false;
  }
  const conditions = Object.keys(target).filter((condition) => condition !== "source");
  if (conditions.length === 0) return false; // workspace-only (tests' helpers): not published
  if (!target.types) problem(name, `exports["${subpath}"] has no types`);
  if (conditions.indexOf("types") > 0) problem(name, `exports["${subpath}"]: "types" must come first`);
  for (const condition of conditions) {
    const file = String(target[condition]).replace(/^\.\//, "");
    if (!paths.has(file))
      problem(name, `exports["${subpath}"].${condition} = ${target[condition]} is not packed`);
  }
  return true;
}

/** Every `./x` or `../x` import of a packed module or declaration names a packed file. */
function checkRelativeImports(name, installed, paths) {
  for (const path of paths) {
    if (!/\.(m?js|d\.ts)$/.test(path)) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(join(installed, path), "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = posix.normalize(posix.join(posix.dirname(path), fileName));
      const candidates = path.endsWith(".d.ts") ? [target.replace(/\.js$/, ".d.ts"), target] : [target];
      if (!candidates.some((candidate) => paths.has(candidate)))
        problem(name, `${path} imports ${fileName}, not packed`);
    }
  }
}

/** A consumer importing every published entry type-checks under node16 and bundler resolution. */
function checkTypes(app, entries) {
  const typed = entries.filter(({ target }) => target.types);
  const imports = typed.map(({ specifier }, i) => `import * as entry${i} from "${specifier}";`).join("\n");
  const uses = `export const all = [${typed.map((_, i) => `entry${i}`).join(", ")}];\n`;
  const settings = [
    { file: "node16.mts", module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
    { file: "bundler.ts", module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  ];
  for (const { file, module, moduleResolution } of settings) {
    const path = join(app, file);
    writeFileSync(path, `${imports}\n${uses}`);
    const program = ts.createProgram([path], {
      module,
      moduleResolution,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
      strict: true,
      noEmit: true,
      types: [],
      typeRoots: [],
    });
    for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
      const where = diagnostic.file ? `${diagnostic.file.fileName.replace(`${app}/`, "")}: ` : "";
      problem(file, `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`);
    }
  }
}

/** Node imports every entry while `process.env` throws on any read from the packages' code. */
function checkImportReadsNoEnv(app, entries) {
  const script = [
    "const env = process.env;",
    // Node's own loader reads a few variables while importing: only a read from a package's code counts.
    "const fromPackage = () => /node_modules\\/@modelhub\\//.test(new Error().stack ?? '');",
    "process.env = new Proxy(env, { get(target, key) { if (typeof key === 'string' && fromPackage()) throw new Error('process.env.' + key + ' read at import'); return Reflect.get(target, key); } });",
    ...entries.map(({ specifier }) => `await import(${JSON.stringify(specifier)});`),
  ].join("\n");
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: app,
    encoding: "utf8",
  });
  if (run.status !== 0) problem("import", run.stderr.trim().split("\n").slice(0, 6).join(" | "));
}

/** Each budgeted program's bundle from the unpacked tarballs, against its budget and its sources' bundle. */
async function checkBundleBudgets(app) {
  const gzipped = async (program, resolveDir, conditions) => {
    const result = await build({
      stdin: { contents: program, resolveDir, sourcefile: "program.mjs" },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      conditions,
      write: false,
      logLevel: "silent",
    });
    return gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
  };
  for (const { name, program, maxGzipBytes } of BUNDLE_BUDGETS) {
    const published = await gzipped(program, app, []);
    const sources = await gzipped(program, root, ["source"]);
    console.log(`check-packs: ${name}: ${published} B gzipped from dist/ (${sources} B from the sources)`);
    if (published > maxGzipBytes) {
      problem(name, `${published} B gzipped from the published files, over its budget of ${maxGzipBytes} B`);
    }
    if (published > sources + PUBLISHED_OVER_SOURCES) {
      problem(
        name,
        `${published} B gzipped from dist/ but ${sources} B from the sources: the build keeps code a bundler could drop (a top-level call not marked /* @__PURE__ */?)`,
      );
    }
  }
}
