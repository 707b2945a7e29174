/**
 * The runtimes of the matrix, each as users run the packages there: Node, Bun and Deno import the installed
 * packages directly (their own resolvers read the packed `exports`); Chromium and workerd run the bundle a
 * user's bundler (esbuild, as Wrangler uses) makes of the same smoke program. Every binary comes from the
 * npm registry as an installed package (Chromium from Debian, as CI installs it); nothing is downloaded here.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { RESULT_MARKER, type RuntimeReport } from "../smoke/checks.mjs";
import { type PublishedApp, REPO_ROOT } from "./published.js";

const require = createRequire(import.meta.url);
const NODE22_DIR = fileURLToPath(new URL("../node22/", import.meta.url));
/** Debian's Chromium, as the widget's browser tests use it (`.ci/run` installs it). */
const CHROMIUM_PATH = "/usr/bin/chromium";
const RUN_TIMEOUT_MS = 60_000;

export interface RuntimeRun {
  report: RuntimeReport;
  /** Wall time of the whole run: start-up, module loading and the checks. */
  ms: number;
}

export interface Runtime {
  /** Stable id: the X-HF-Bill-To of its requests and the name of its test. */
  id: string;
  /** What runs it, e.g. "bun (node_modules/@oven/bun-linux-x64/bin/bun)". */
  describe(): string;
  /** Why this runtime cannot run on this machine, or undefined when it can. */
  unavailable(): string | undefined;
  run(app: PublishedApp, simUrl: string): Promise<RuntimeRun>;
}

/** A binary's path as the test names it: from the repository's root when it is installed there. */
function shown(path: string | undefined): string {
  if (!path) return "not installed";
  const inRepo = relative(REPO_ROOT, path);
  return inRepo.startsWith("..") ? path : inRepo;
}

/** The binary a platform package ships, or undefined when this platform's package is not installed. */
function platformBinary(candidates: string[], subpath: string): string | undefined {
  for (const name of candidates) {
    try {
      const file = join(require.resolve(`${name}/package.json`), "..", subpath);
      if (existsSync(file)) return file;
    } catch {
      // Not this platform's package: try the next.
    }
  }
  return undefined;
}

const arch = process.arch;
const platform = process.platform;

function bunBinary(): string | undefined {
  const os = platform === "win32" ? "windows" : platform;
  const cpu = arch === "arm64" ? "aarch64" : arch;
  const names = [`@oven/bun-${os}-${cpu}`, `@oven/bun-${os}-${cpu}-musl`];
  const shipped = platformBinary(names, platform === "win32" ? "bin/bun.exe" : "bin/bun");
  if (shipped) return shipped;
  // Where bun's postinstall ran, it moved that binary over its own placeholder bin/bun.exe (a text file).
  const moved = platformBinary(["bun"], "bin/bun.exe");
  return moved && statSync(moved).size > 1_000_000 ? moved : undefined;
}

function denoBinary(): string | undefined {
  const names = [`@deno/${platform}-${arch}`, `@deno/${platform}-${arch}-glibc`];
  return platformBinary(names, platform === "win32" ? "deno.exe" : "deno");
}

function node22Binary(): string | undefined {
  const os = platform === "win32" ? "win" : platform;
  const dir = join(NODE22_DIR, "node_modules", `node-${os}-${arch}`);
  const file = join(dir, platform === "win32" ? "bin/node.exe" : "bin/node");
  return existsSync(file) ? file : undefined;
}

function workerdBinary(): string | undefined {
  try {
    const file = (require("workerd") as { default: string }).default;
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Runs a command to its end; resolves with its output, rejects with it when it fails or times out. */
function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { ...options, timeout: RUN_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`));
        } else {
          resolve({ stdout, stderr });
        }
      },
    );
  });
}

/** The report line the smoke program printed, parsed; an error naming the runtime when there is none. */
function reportFrom(id: string, output: string): RuntimeReport {
  const line = output.split("\n").find((candidate) => candidate.includes(RESULT_MARKER));
  if (!line) throw new Error(`${id} printed no ${RESULT_MARKER.trim()} line:\n${output}`);
  return JSON.parse(line.slice(line.indexOf(RESULT_MARKER) + RESULT_MARKER.length)) as RuntimeReport;
}

/** Writes `smoke/<name>` beside checks.mjs (so it imports the installed packages) and returns its path. */
function writeSmokeModule(app: PublishedApp, name: string, lines: string[]): string {
  const file = join(app.dir, "smoke", name);
  writeFileSync(
    file,
    [`import { resultLine, runChecks, runtimeVersion } from "./checks.mjs";`, ...lines, ""].join("\n"),
  );
  return file;
}

/** An entry that runs the checks when loaded, then hands `line` (the report) to `report`. */
function writeEntry(app: PublishedApp, id: string, simUrl: string, report: string[]): string {
  return writeSmokeModule(app, `entry-${id}.mjs`, [
    `const results = await runChecks(${JSON.stringify(simUrl)}, ${JSON.stringify(id)});`,
    `const line = resultLine(${JSON.stringify(id)}, runtimeVersion(), results);`,
    ...report,
  ]);
}

/** Node, Bun and Deno: the entry runs as a script, importing the installed packages. */
function scriptRuntime(
  id: string,
  binary: () => string | undefined,
  missing: string,
  args: (entry: string, app: PublishedApp, simUrl: string) => string[],
  env: (app: PublishedApp) => NodeJS.ProcessEnv = () => ({}),
): Runtime {
  return {
    id,
    describe: () => `${id} (${shown(binary())})`,
    unavailable: () => (binary() ? undefined : missing),
    async run(app, simUrl) {
      const entry = writeEntry(app, id, simUrl, ["console.log(line);"]);
      const started = performance.now();
      const { stdout, stderr } = await runCommand(binary()!, args(entry, app, simUrl), {
        cwd: app.dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env(app) },
      });
      return { report: reportFrom(id, `${stdout}\n${stderr}`), ms: performance.now() - started };
    },
  };
}

/** The smoke entry bundled for a platform, as a user's bundler would (esbuild honours `exports`). */
async function bundle(app: PublishedApp, entry: string, platform: "browser" | "neutral"): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: app.dir,
    bundle: true,
    format: "esm",
    platform,
    // "neutral" resolves no `main` fields and no conditions of its own: what a worker bundle gets.
    ...(platform === "neutral" ? { mainFields: ["module", "main"], conditions: ["workerd", "worker"] } : {}),
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

const chromiumRuntime: Runtime = {
  id: "chromium",
  describe: () => `chromium (${CHROMIUM_PATH} through playwright-core)`,
  unavailable: () =>
    existsSync(CHROMIUM_PATH) ? undefined : `${CHROMIUM_PATH} is missing: apt-get install chromium`,
  async run(app, simUrl) {
    const entry = writeEntry(app, "chromium", simUrl, ["globalThis.__matrixLine = line;"]);
    const script = await bundle(app, entry, "browser");
    const started = performance.now();
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
      ],
    });
    try {
      const page = await browser.newPage();
      // The page is served on provider-sim's own origin (intercepted, never sent), so its calls are
      // same-origin: what a page calling a CORS-enabled router does, without depending on the sim's CORS.
      await page.route(`${simUrl}/__matrix/**`, (route) => {
        const path = new URL(route.request().url()).pathname;
        return path.endsWith(".js")
          ? route.fulfill({ contentType: "text/javascript", body: script })
          : route.fulfill({
              contentType: "text/html",
              body: '<!doctype html><meta charset="utf-8"><script type="module" src="./smoke.js"></script>',
            });
      });
      const pageErrors: string[] = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await page.goto(`${simUrl}/__matrix/index.html`);
      const handle = await page
        .waitForFunction(() => (globalThis as { __matrixLine?: string }).__matrixLine, undefined, {
          timeout: RUN_TIMEOUT_MS,
        })
        .catch((error: Error) => {
          throw new Error(`chromium gave no result: ${error.message}; page errors: ${pageErrors.join("; ")}`);
        });
      const line = (await handle.jsonValue()) as string;
      // The page's user agent says only "HeadlessChrome/156.0.0.0"; the browser knows its full version.
      const report = { ...reportFrom("chromium", line), version: `Chromium ${browser.version()}` };
      return { report, ms: performance.now() - started };
    } finally {
      await browser.close();
    }
  },
};

const workerdRuntime: Runtime = {
  id: "workerd",
  describe: () => `workerd (${shown(workerdBinary())})`,
  unavailable: () =>
    workerdBinary() ? undefined : "no @cloudflare/workerd-* package for this platform is installed",
  async run(app, simUrl) {
    // A worker's module body may not do I/O: the checks run in its `test` handler, which `workerd test` calls.
    const entry = writeSmokeModule(app, "entry-workerd.mjs", [
      "export default {",
      "  async test() {",
      `    const results = await runChecks(${JSON.stringify(simUrl)}, "workerd");`,
      `    console.log(resultLine("workerd", runtimeVersion(), results));`,
      "  },",
      "};",
    ]);
    const dir = join(app.dir, "workerd");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "worker.mjs"), await bundle(app, entry, "neutral"));
    const { compatibilityDate } = require("workerd") as { compatibilityDate: string };
    writeFileSync(
      join(dir, "config.capnp"),
      [
        'using Workerd = import "/workerd/workerd.capnp";',
        "const config :Workerd.Config = (",
        "  services = [",
        '    (name = "main", worker = .matrixWorker),',
        // Loopback only: provider-sim is the one server the worker calls.
        '    (name = "loopback", network = (allow = ["local"])),',
        "  ],",
        ");",
        "const matrixWorker :Workerd.Worker = (",
        '  modules = [(name = "worker.mjs", esModule = embed "worker.mjs")],',
        `  compatibilityDate = "${compatibilityDate}",`,
        '  globalOutbound = "loopback",',
        ");",
        "",
      ].join("\n"),
    );
    const started = performance.now();
    const { stdout, stderr } = await runCommand(workerdBinary()!, ["test", "config.capnp"], { cwd: dir });
    const report = reportFrom("workerd", `${stdout}\n${stderr}`);
    return {
      report: { ...report, version: `workerd ${compatibilityDate}` },
      ms: performance.now() - started,
    };
  },
};

export const RUNTIMES: Runtime[] = [
  scriptRuntime(
    "node20",
    () => process.execPath,
    "",
    (entry) => [entry],
  ),
  scriptRuntime(
    "node22",
    node22Binary,
    `the registry has no Node 22 package for ${platform}-${arch} (see node22/package.json), or the ` +
      "runtime-matrix workspace's postinstall did not run: npm install",
    (entry) => [entry],
  ),
  scriptRuntime(
    "bun",
    bunBinary,
    `no @oven/bun-* package for ${platform}-${arch} is installed: npm install`,
    (entry) => ["--no-install", entry],
    () => ({ BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" }),
  ),
  scriptRuntime(
    "deno",
    denoBinary,
    `no @deno/* package for ${platform}-${arch} is installed: npm install`,
    // Only loopback and the app: a package that read the environment or the disk at import would fail here.
    (entry, app, simUrl) => [
      "run",
      "--no-prompt",
      "--node-modules-dir=manual",
      `--allow-net=${new URL(simUrl).host}`,
      `--allow-read=${app.dir}`,
      entry,
    ],
    (app) => ({ DENO_DIR: join(app.dir, ".deno"), DENO_NO_UPDATE_CHECK: "1" }),
  ),
  chromiumRuntime,
  workerdRuntime,
];
