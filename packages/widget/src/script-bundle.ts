/**
 * Builds the embeddable script from its TypeScript sources with esbuild, once per process, so the hub
 * serves it without a prior build step. Server-side only; esbuild and node:* are imported lazily so that
 * browser bundles importing this package's options never pull them in.
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

type Esbuild = typeof import("esbuild");

/** Node-only modules, loaded through a variable so bundlers (Vite) never pull them into browser code. */
const loadNodeModule = <T>(specifier: string): Promise<T> => import(/* @vite-ignore */ specifier);
const SOURCE_EXTENSIONS = [".ts", ".js"];

let pending: Promise<WidgetScript> | undefined;

/** The script, bundled and minified on first call and kept in memory; a failed build is retried next call. */
export function getTopProductsScript(): Promise<WidgetScript> {
  pending ??= bundleTopProductsScript().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function bundleTopProductsScript(): Promise<WidgetScript> {
  const [esbuild, fs, zlib, crypto] = await Promise.all([
    loadNodeModule<Esbuild>("esbuild"),
    loadNodeModule<typeof import("node:fs")>("node:fs"),
    loadNodeModule<typeof import("node:zlib")>("node:zlib"),
    loadNodeModule<typeof import("node:crypto")>("node:crypto"),
  ]);
  // From src/ (tests, `npm start`) the entry is main.ts; from dist/ it is the compiled main.js.
  const entry = SOURCE_EXTENSIONS.map((extension) =>
    decodeURIComponent(new URL(`./script/main${extension}`, import.meta.url).pathname),
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

  const code = output.text;
  const bytes = new TextEncoder().encode(code).length;
  const gzip = new Uint8Array(zlib.gzipSync(code, { level: 9 }));
  const hash = crypto.createHash("sha256").update(code).digest("base64url").slice(0, 22);
  const newest = Object.keys(result.metafile?.inputs ?? {})
    .map((input) => fs.statSync(input.startsWith("/") ? input : `${workingDir}/${input}`).mtimeMs)
    .reduce((a, b) => Math.max(a, b), 0);
  return {
    code,
    etag: `"tp${WIDGET_SCRIPT_VERSION}-${hash}"`,
    bytes,
    gzip,
    gzipBytes: gzip.length,
    lastModified: new Date(Math.floor(newest / 1000) * 1000),
  };
}
