import { resolve } from "node:path";
import type { Plugin } from "vite";

/** The file the hub reads (apps/hub/src/http/static-web.ts): page name -> its scripts, `/assets/...js`. */
export const PAGE_PRELOADS_FILE = "page-preloads.json";

/**
 * Pages whose code the hub names in a `Link: rel=modulepreload` header when it serves them, by the names the
 * hub gives them (apps/hub/src/http/web-pages.ts, preloadedPage), with the modules their first paint needs:
 * the route's page modules and what their loaders import.
 */
export const PRELOADED_PAGES: Record<string, readonly string[]> = {
  home: ["src/app/pages/home-page.tsx"],
  models: ["src/app/pages/models-page.tsx", "src/features/models-list/models-filters.tsx"],
  model: [
    "src/app/pages/model-layout.tsx",
    "src/app/pages/model-card-page.tsx",
    "src/features/model-page/card-in-worker.ts",
  ],
};

interface ChunkInfo {
  fileName: string;
  imports: string[];
  moduleIds: string[];
  facadeModuleId: string | null;
  isEntry: boolean;
}

/** `fileName` and every chunk it imports statically, transitively. */
function staticClosure(fileName: string, chunks: Map<string, ChunkInfo>): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const imported of chunks.get(name)?.imports ?? []) visit(imported);
  };
  visit(fileName);
  return seen;
}

/**
 * Writes PAGE_PRELOADS_FILE: for each of PRELOADED_PAGES the chunks its modules are in and what they import,
 * minus what index.html preloads already (the entry's chunks). Without it the page's chunks were requested
 * only after the entry chunk had run (a third of a second with the CPU slowed 4x): the router asks for them.
 * Fails the build when a listed module is in no chunk (renamed or moved: the list must follow).
 */
export function pagePreloadsPlugin(pages: Record<string, readonly string[]> = PRELOADED_PAGES): Plugin {
  let root = process.cwd();
  return {
    name: "modelhub:page-preloads",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = new Map<string, ChunkInfo>();
      for (const output of Object.values(bundle)) {
        if (output.type === "chunk") chunks.set(output.fileName, output);
      }
      const preloadedByIndex = new Set<string>();
      for (const chunk of chunks.values()) {
        if (chunk.isEntry)
          for (const name of staticClosure(chunk.fileName, chunks)) preloadedByIndex.add(name);
      }
      const preloads: Record<string, string[]> = {};
      for (const [page, modules] of Object.entries(pages)) {
        const files = new Set<string>();
        for (const module of modules) {
          const id = resolve(root, module);
          const chunk = [...chunks.values()].find(
            (candidate) => candidate.facadeModuleId === id || candidate.moduleIds.includes(id),
          );
          if (!chunk) {
            return this.error(
              `page-preloads: ${module} (page "${page}") is in no chunk; update PRELOADED_PAGES.`,
            );
          }
          for (const name of staticClosure(chunk.fileName, chunks)) {
            if (!preloadedByIndex.has(name)) files.add(`/${name}`);
          }
        }
        preloads[page] = [...files].sort();
      }
      this.emitFile({
        type: "asset",
        fileName: PAGE_PRELOADS_FILE,
        source: `${JSON.stringify(preloads, null, 2)}\n`,
      });
    },
  };
}
