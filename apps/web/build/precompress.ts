import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** Text files worth compressing; images and fonts are compressed already. */
const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|txt|map|wasm)$/;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;

/**
 * Writes `name.br` (brotli, quality 11) and `name.gz` (gzip, level 9) beside every text file of `dir`, once,
 * at build time: the hub serves them with Content-Encoding (Hono's serve-static `precompressed`) and spends no
 * CPU compressing per request. Returns the files compressed.
 */
export function precompressDirectory(dir: string): string[] {
  const done: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      done.push(...precompressDirectory(path));
      continue;
    }
    if (!TEXT_FILE.test(entry) || stat.size < MIN_BYTES) continue;
    const bytes = readFileSync(path);
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    );
    writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
    done.push(path);
  }
  return done;
}

/** Test sources and TypeScript must never be published: they are not the app. */
const NOT_THE_APP = /\.(?:test|spec)[.-]|\.tsx?$/;

/**
 * Fails the build when an emitted file is not part of the app (a test source or a TypeScript file a
 * `new URL(\`./${name}\`, import.meta.url)` glob swept in), then precompresses the output.
 */
export function deliveryPlugin(): Plugin {
  let outDir = "dist";
  return {
    name: "modelhub:delivery",
    apply: "build",
    configResolved(config) {
      // resolve, not join: an absolute outDir (a private build, --outDir /tmp/x) stays as it is.
      outDir = resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      const strays = Object.keys(bundle).filter((name) => NOT_THE_APP.test(name));
      if (strays.length > 0) {
        this.error(
          `the build would publish files that are not the app: ${strays.join(", ")}. ` +
            "Mark the new URL(...) that globbed them with /* @vite-ignore */ or import them explicitly.",
        );
      }
    },
    closeBundle() {
      precompressDirectory(outDir);
    },
  };
}
