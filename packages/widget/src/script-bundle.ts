/**
 * The embeddable script, bundled from its TypeScript sources with esbuild. The package's build writes it
 * next to the bundled modules (`dist/top-products.js`, see `writeTopProductsScript`), so a release serves
 * it with no esbuild installed; from the sources (tests, `npm run dev`) it is bundled once per process.
 * Server-side only; esbuild and node:* are imported lazily so that browser bundles importing this package's
 * options never pull them in.
 */
import { WIDGET_SCRIPT_VERSION } from "./data-api.js";

export interface WidgetScript {
  /** The minified IIFE. */
  code: string;
  /** A strong validator: a quoted hash of `code`. */
  etag: string;
  /** UTF-8 size of `code`. */
  bytes: number;
  /** `code` gzipped at level 9, served to clients that accept gzip. */
  gzip: Uint8Array;
  /** Size of `gzip`. */
  gzipBytes: number;
  /** The newest modification time of the sources that went into the bundle (whole seconds). */
  lastModified: Date;
}

export class WidgetScriptBuildError extends Error {
  override readonly name = "WidgetScriptBuildError";
}

/**
 * The part of esbuild's API used here, written out so that the published types do not import esbuild: it is
 * a build tool (a devDependency), loaded only when the script is bundled from the sources.
 */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{
    outputFiles?: Array<{ text: string }>;
    metafile?: { inputs: Record<string, unknown> };
  }>;
}

/** Node-only modules, loaded through a variable so bundlers (Vite) never pull them into browser code. */
const loadNodeModule = <T>(specifier: string): Promise<T> => import(/* @vite-ignore */ specifier);
const SOURCE_EXTENSIONS = [".ts", ".js"];

/** Where the build writes the bundled script, beside the compiled modules. */
const PREBUILT_NAME = "top-products.js";

let pending: Promise<WidgetScript> | undefined;

/**
 * The script, read from the build's output when there is one, else bundled and minified on first call; kept
 * in memory. A failed build is retried next call.
 */
export function getTopProductsScript(): Promise<WidgetScript> {
  pending ??= loadTopProductsScript().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function loadTopProductsScript(): Promise<WidgetScript> {
  const fs = await loadNodeModule<typeof import("node:fs")>("node:fs");
  const prebuilt = decodeURIComponent(
    new URL(/* @vite-ignore */ `./${PREBUILT_NAME}`, import.meta.url).pathname,
  );
  if (fs.existsSync(prebuilt)) {
    return scriptFrom(fs.readFileSync(prebuilt, "utf8"), fs.statSync(prebuilt).mtimeMs);
  }
  const { code, newestInputMs } = await bundleTopProductsScript();
  return scriptFrom(code, newestInputMs);
}

/**
 * Bundles the script and writes it into `outDir` (the build calls this from the sources, with the package's
 * dist/, where the bundled modules look for it); returns its path.
 */
export async function writeTopProductsScript(outDir: string): Promise<string> {
  const [fs, path] = await Promise.all([
    loadNodeModule<typeof import("node:fs")>("node:fs"),
    loadNodeModule<typeof import("node:path")>("node:path"),
  ]);
  const { code, newestInputMs } = await bundleTopProductsScript();
  const target = path.resolve(outDir, PREBUILT_NAME);
  fs.writeFileSync(target, code);
  // The file's time stands for its sources' (Last-Modified), as when bundling in process.
  fs.utimesSync(target, newestInputMs / 1000, newestInputMs / 1000);
  return target;
}

async function scriptFrom(code: string, modifiedMs: number): Promise<WidgetScript> {
  const [zlib, crypto] = await Promise.all([
    loadNodeModule<typeof import("node:zlib")>("node:zlib"),
    loadNodeModule<typeof import("node:crypto")>("node:crypto"),
  ]);
  const bytes = new TextEncoder().encode(code).length;
  const gzip = new Uint8Array(zlib.gzipSync(code, { level: 9 }));
  const hash = crypto.createHash("sha256").update(code).digest("base64url").slice(0, 22);
  return {
    code,
    etag: `"tp${WIDGET_SCRIPT_VERSION}-${hash}"`,
    bytes,
    gzip,
    gzipBytes: gzip.length,
    lastModified: new Date(Math.floor(modifiedMs / 1000) * 1000),
  };
}

async function bundleTopProductsScript(): Promise<{ code: string; newestInputMs: number }> {
  const [esbuild, fs] = await Promise.all([
    loadNodeModule<Esbuild>("esbuild"),
    loadNodeModule<typeof import("node:fs")>("node:fs"),
  ]);
  // From src/ (tests, `npm start`, the build) the entry is main.ts; a dist/ of tsc's days had main.js.
  const entry = SOURCE_EXTENSIONS.map((extension) =>
    decodeURIComponent(new URL(/* @vite-ignore */ `./script/main${extension}`, import.meta.url).pathname),
  ).find((path) => fs.existsSync(path));
  if (!entry) throw new WidgetScriptBuildError("widget script entry (script/main.ts) not found");
  const workingDir = entry.slice(0, entry.lastIndexOf("/"));

  let result: Awaited<ReturnType<Esbuild["build"]>>;
  try {
    result = await esbuild.build({
      entryPoints: [entry],
      // Metafile input paths are relative to this directory.
      absWorkingDir: workingDir,
      bundle: true,
      minify: true,
      format: "iife",
      target: "es2020",
      platform: "browser",
      write: false,
      metafile: true,
      legalComments: "none",
      charset: "utf8",
      logLevel: "silent",
      define: { __WIDGET_VERSION__: JSON.stringify(WIDGET_SCRIPT_VERSION) },
    });
  } catch (error) {
    throw new WidgetScriptBuildError(`bundling the widget script failed: ${String(error)}`);
  }
  const output = result.outputFiles?.[0];
  if (!output) throw new WidgetScriptBuildError("esbuild produced no output for the widget script");

  const newestInputMs = Object.keys(result.metafile?.inputs ?? {})
    .map((input) => fs.statSync(input.startsWith("/") ? input : `${workingDir}/${input}`).mtimeMs)
    .reduce((a, b) => Math.max(a, b), 0);
  return { code: output.text, newestInputMs };
}
