/**
 * The LFS patterns of a repository's `.gitattributes` (lines whose attributes include `filter=lfs`), matched
 * as git matches attribute patterns: a pattern without "/" matches the file name at any depth; one with "/"
 * matches the whole path from the repository root; `*` stays within a path segment, `**` crosses them.
 */
export function lfsPatterns(gitattributes: string): string[] {
  const patterns: string[] = [];
  for (const raw of gitattributes.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const [pattern, ...attributes] = line.split(/\s+/);
    if (pattern && attributes.includes("filter=lfs")) patterns.push(pattern);
  }
  return patterns;
}

const cache = new Map<string, RegExp>();

function patternRegExp(pattern: string): RegExp {
  let regexp = cache.get(pattern);
  if (regexp) return regexp;
  const anchored = pattern.includes("/");
  const body = pattern.replace(/^\//, "");
  let source = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === "*" && body[i + 1] === "*") {
      // "**/" matches zero or more directories; a trailing "**" everything below.
      if (body[i + 2] === "/") {
        source += "(?:.*/)?";
        i += 2;
      } else {
        source += ".*";
        i += 1;
      }
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  regexp = new RegExp(anchored ? `^${source}$` : `(?:^|/)${source}$`);
  if (cache.size < 1000) cache.set(pattern, regexp);
  return regexp;
}

export function matchesLfsPattern(path: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => patternRegExp(pattern).test(path));
}

/** The `.gitattributes` a new repository starts with, as on the public hub. */
export const DEFAULT_GITATTRIBUTES = `${[
  "*.7z",
  "*.arrow",
  "*.bin",
  "*.bz2",
  "*.ckpt",
  "*.ftz",
  "*.gguf",
  "*.gz",
  "*.h5",
  "*.joblib",
  "*.lfs.*",
  "*.mlmodel",
  "*.model",
  "*.msgpack",
  "*.npy",
  "*.npz",
  "*.onnx",
  "*.ot",
  "*.parquet",
  "*.pb",
  "*.pickle",
  "*.pkl",
  "*.pt",
  "*.pth",
  "*.rar",
  "*.safetensors",
  "saved_model/**/*",
  "*.tar.*",
  "*.tar",
  "*.tflite",
  "*.tgz",
  "*.wasm",
  "*.xz",
  "*.zip",
  "*.zst",
  "*tfevents*",
]
  .map((pattern) => `${pattern} filter=lfs diff=lfs merge=lfs -text`)
  .join("\n")}\n`;
