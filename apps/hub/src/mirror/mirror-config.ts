import { parseByteSize, parseRepoPattern } from "./mirror-policy.js";

/**
 * The mirror's settings (docs/decisions/mirror.md; the hub README's configuration table), parsed and checked
 * with the rest of the configuration (config.ts): every problem is reported at once, and UPSTREAM_TOKEN is
 * never echoed.
 */

export type MirrorMode = "pull-through" | "offline";

export interface MirrorSettings {
  /** UPSTREAM_URL: the upstream hub's base URL, without a trailing slash. */
  upstreamUrl: string;
  /** UPSTREAM_TOKEN: the hub's own credential upstream. */
  upstreamToken: string | undefined;
  /** MIRROR_MODE: ask upstream on a miss, or serve only what is cached. */
  mode: MirrorMode;
  /** MIRROR_REVISION_TTL: milliseconds before a branch or tag name is resolved upstream again. */
  revisionTtlMs: number;
  /** MIRROR_ALLOW: repository patterns that may be mirrored (empty: every repository). */
  allow: string[];
  /** MIRROR_DENY: repository patterns never mirrored (deny wins over allow). */
  deny: string[];
  /** MIRROR_LICENSES: licence ids a mirrored repository's card may declare (empty: any). */
  licenses: string[];
  /** MIRROR_MAX_FILE_SIZE: bytes; a larger upstream file is refused. */
  maxFileSize: number | undefined;
  /** MIRROR_MAX_CACHE_SIZE: bytes of mirrored LFS content kept (least recently read evicted first). */
  maxCacheSize: number | undefined;
  /** MIRROR_LOCAL_NAMESPACES: owners never looked up upstream. */
  localNamespaces: string[];
  /** MIRROR_UPSTREAM_TIMEOUT: milliseconds to connect and receive headers upstream before failing. */
  upstreamTimeoutMs: number;
}

export const DEFAULT_REVISION_TTL_SECONDS = 60;
export const DEFAULT_UPSTREAM_TIMEOUT_SECONDS = 5;

/** Variables that only mean something with UPSTREAM_URL set. */
const MIRROR_ONLY = [
  "UPSTREAM_TOKEN",
  "MIRROR_MODE",
  "MIRROR_REVISION_TTL",
  "MIRROR_ALLOW",
  "MIRROR_DENY",
  "MIRROR_LICENSES",
  "MIRROR_MAX_FILE_SIZE",
  "MIRROR_MAX_CACHE_SIZE",
  "MIRROR_LOCAL_NAMESPACES",
  "MIRROR_UPSTREAM_TIMEOUT",
] as const;

const commaList = (raw: string | undefined): string[] =>
  (raw ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);

function parseSeconds(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  problems: string[],
  minimum: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback * 1000;
  const seconds = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || seconds < minimum) {
    problems.push(`${name} must be a number of seconds >= ${minimum}, got "${raw}".`);
    return fallback * 1000;
  }
  return Math.round(seconds * 1000);
}

/** The mirror's settings, or undefined without UPSTREAM_URL (then no mirror variable may be set). */
export function parseMirrorSettings(
  env: Record<string, string | undefined>,
  problems: string[],
): MirrorSettings | undefined {
  const url = env.UPSTREAM_URL?.trim();
  if (!url) {
    const stray = MIRROR_ONLY.filter((name) => env[name]);
    if (stray.length > 0) {
      problems.push(
        `${stray.join(", ")} ${stray.length === 1 ? "is" : "are"} set but UPSTREAM_URL is not: set it to mirror an upstream hub.`,
      );
    }
    return undefined;
  }
  let upstreamUrl = url;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    problems.push(`UPSTREAM_URL must be an http(s) URL such as https://huggingface.co, got "${url}".`);
  } else if (new URL(url).username || new URL(url).password) {
    // It would be logged with every upstream error: the credential goes in UPSTREAM_TOKEN.
    problems.push("UPSTREAM_URL must not carry credentials: put the token in UPSTREAM_TOKEN.");
  } else {
    upstreamUrl = url.replace(/\/+$/, "");
  }
  const upstreamToken = env.UPSTREAM_TOKEN?.trim() || undefined;
  if (upstreamToken !== undefined && /[\s\p{Cc}]/u.test(upstreamToken)) {
    problems.push("UPSTREAM_TOKEN must not contain whitespace or control characters.");
  }
  const mode = (env.MIRROR_MODE || "pull-through") as MirrorMode;
  if (mode !== "pull-through" && mode !== "offline") {
    problems.push(`MIRROR_MODE must be pull-through or offline, got "${env.MIRROR_MODE}".`);
  }
  const patterns = (name: "MIRROR_ALLOW" | "MIRROR_DENY") => {
    const list = commaList(env[name]);
    for (const pattern of list) {
      const parsed = parseRepoPattern(pattern);
      if (typeof parsed === "string") problems.push(`${name}: ${parsed}.`);
    }
    return list;
  };
  const size = (name: "MIRROR_MAX_FILE_SIZE" | "MIRROR_MAX_CACHE_SIZE") => {
    const raw = env[name];
    if (!raw) return undefined;
    const bytes = parseByteSize(raw);
    if (bytes !== undefined && bytes > 0) return bytes;
    problems.push(`${name} must be a size in bytes (k, M, G, T suffixes ok), got "${raw}".`);
    return undefined;
  };
  return {
    upstreamUrl,
    upstreamToken,
    mode,
    revisionTtlMs: parseSeconds(env, "MIRROR_REVISION_TTL", DEFAULT_REVISION_TTL_SECONDS, problems, 0),
    allow: patterns("MIRROR_ALLOW"),
    deny: patterns("MIRROR_DENY"),
    licenses: commaList(env.MIRROR_LICENSES).map((license) => license.toLowerCase()),
    maxFileSize: size("MIRROR_MAX_FILE_SIZE"),
    maxCacheSize: size("MIRROR_MAX_CACHE_SIZE"),
    localNamespaces: commaList(env.MIRROR_LOCAL_NAMESPACES),
    upstreamTimeoutMs: parseSeconds(
      env,
      "MIRROR_UPSTREAM_TIMEOUT",
      DEFAULT_UPSTREAM_TIMEOUT_SECONDS,
      problems,
      0.1,
    ),
  };
}
