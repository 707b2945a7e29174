import { getModelLibrary } from "@modelhub/tasks";

/**
 * What counts as a download of a model, as the public hub counts it: each library may name the files whose
 * request is one download (`countDownloads` in @modelhub/tasks, a query such as
 * `path_extension:"gguf" OR path:"config.json"`); without one, a request of one of the default config
 * files counts. So `snapshot_download` of a transformers model counts once (its config.json), not once per file.
 */
export const DEFAULT_COUNTED_FILES = [
  "config.json",
  "config.yaml",
  "hyperparams.yaml",
  "params.json",
  "meta.yaml",
];

type Term = (path: string) => boolean;

function fileName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function extension(path: string): string {
  const name = fileName(path);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1);
}

/** A term of the query language: `field:"value"`. Unknown fields never match (a safe undercount). */
function term(field: string, value: string): Term {
  switch (field) {
    case "path":
      return (path) => path === value;
    case "path_extension":
      return (path) => extension(path) === value;
    case "path_filename": {
      // The name without its extension, as the public hub's index stores it.
      return (path) => {
        const name = fileName(path);
        const dot = name.lastIndexOf(".");
        return (dot <= 0 ? name : name.slice(0, dot)) === value;
      };
    }
    case "path_prefix":
      return (path) => path.startsWith(value);
    case "_exists_":
      // `_exists_:"path_prefix"`: the file is in a folder.
      return value === "path_prefix" ? (path) => path.includes("/") : () => false;
    default:
      return () => false;
  }
}

/** Parses a `countDownloads` query: terms joined by AND and OR (AND binds tighter; no parentheses are used). */
export function parseDownloadRule(query: string): (path: string) => boolean {
  const alternatives = query.split(/\s+OR\s+/).map((alternative) =>
    alternative.split(/\s+AND\s+/).map((text) => {
      const match = /^\s*([a-z_]+):"([^"]*)"\s*$/.exec(text);
      return match ? term(match[1]!, match[2]!) : () => false;
    }),
  );
  return (path) => alternatives.some((terms) => terms.every((test) => test(path)));
}

const cache = new Map<string, (path: string) => boolean>();

/** Whether a request of `path` counts as a download of a model of `library` (its card's `library_name`). */
export function countsAsDownload(library: string | undefined, path: string): boolean {
  const query = getModelLibrary(library)?.countDownloads;
  if (query === undefined) return DEFAULT_COUNTED_FILES.includes(path);
  let rule = cache.get(query);
  if (!rule) {
    rule = parseDownloadRule(query);
    cache.set(query, rule);
  }
  return rule(path);
}
