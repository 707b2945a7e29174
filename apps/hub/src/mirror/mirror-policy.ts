/**
 * What the mirror may take from upstream: which repositories (allow and deny patterns, local-only
 * namespaces), under which licences, and how large a file and the whole cache may be. Pure: no I/O, so the
 * service (lookup), the content pull (file size) and the cache (eviction) all ask the same object, and the
 * admin page shows exactly what it enforces.
 */
import type { RepoType } from "../repos/repo-records.js";

/** One entry of MIRROR_ALLOW / MIRROR_DENY: `owner/name` with `*`, for one repository type. */
export interface RepoPattern {
  type: RepoType;
  /** As written (without the type prefix), for messages and the admin page. */
  source: string;
  matcher: RegExp;
}

export interface MirrorPolicySettings {
  allow: RepoPattern[];
  deny: RepoPattern[];
  /** Licence ids (lower case) a card must declare; empty: any licence, or none. */
  licenses: string[];
  /** Owners (lower case) never looked up upstream: their names stay free for local repositories. */
  localNamespaces: string[];
  /** Bytes; undefined: no cap. */
  maxFileSize: number | undefined;
  /** Bytes of mirrored content kept; undefined: no cap (nothing is evicted on its own). */
  maxCacheSize: number | undefined;
}

/** The policy as the admin API shows it (patterns as written, sizes in bytes, null for "no cap"). */
export interface MirrorPolicyView {
  allow: string[];
  deny: string[];
  licenses: string[];
  localNamespaces: string[];
  maxFileSize: number | null;
  maxCacheSize: number | null;
}

const TYPE_PREFIXES: Record<string, RepoType> = { models: "model", datasets: "dataset", spaces: "space" };
const PREFIX_OF: Record<RepoType, string> = { model: "", dataset: "datasets/", space: "spaces/" };
const SEGMENT = /^[A-Za-z0-9*][A-Za-z0-9._*-]*$|^\*$/;

export class MirrorPolicy {
  constructor(readonly settings: MirrorPolicySettings) {}

  /** Why upstream's `type` `id` may not be mirrored, or undefined when it may. */
  refusal(type: RepoType, id: string): string | undefined {
    const owner = id.split("/")[0]?.toLowerCase() ?? "";
    if (this.settings.localNamespaces.includes(owner)) {
      return `the namespace "${owner}" is local-only (MIRROR_LOCAL_NAMESPACES)`;
    }
    const denied = this.settings.deny.find((pattern) => matches(pattern, type, id));
    if (denied) return `${PREFIX_OF[type]}${id} matches MIRROR_DENY pattern "${render(denied)}"`;
    if (
      this.settings.allow.length > 0 &&
      !this.settings.allow.some((pattern) => matches(pattern, type, id))
    ) {
      return `${PREFIX_OF[type]}${id} matches no MIRROR_ALLOW pattern`;
    }
    return undefined;
  }

  admits(type: RepoType, id: string): boolean {
    return this.refusal(type, id) === undefined;
  }

  /** True when the owner is reserved for local repositories: the id is never looked up upstream. */
  isLocalOnly(id: string): boolean {
    return this.settings.localNamespaces.includes(id.split("/")[0]?.toLowerCase() ?? "");
  }

  /**
   * Why a card's licence keeps the repository out, or undefined when it is admitted. `cardData` is the
   * card's YAML metadata (upstream's `cardData`): `license` (a string or a list), and for `other` the
   * `license_name` the public hub uses for custom licences.
   */
  licenseRefusal(cardData: unknown): string | undefined {
    if (this.settings.licenses.length === 0) return undefined;
    const declared = declaredLicenses(cardData);
    if (declared.some((license) => this.settings.licenses.includes(license))) return undefined;
    const allowed = this.settings.licenses.join(", ");
    if (declared.length === 0) return `its card declares no licence (MIRROR_LICENSES allows ${allowed})`;
    return `its licence ${declared.join(", ")} is not in MIRROR_LICENSES (${allowed})`;
  }

  licenseAllowed(cardData: unknown): boolean {
    return this.licenseRefusal(cardData) === undefined;
  }

  /** Why a file of `size` bytes may not be mirrored, or undefined when it may. */
  fileRefusal(size: number): string | undefined {
    const cap = this.settings.maxFileSize;
    if (cap === undefined || size <= cap) return undefined;
    return `the file is ${formatBytes(size)}, over MIRROR_MAX_FILE_SIZE (${formatBytes(cap)})`;
  }

  fileAllowed(size: number): boolean {
    return this.fileRefusal(size) === undefined;
  }

  view(): MirrorPolicyView {
    return {
      allow: this.settings.allow.map(render),
      deny: this.settings.deny.map(render),
      licenses: [...this.settings.licenses],
      localNamespaces: [...this.settings.localNamespaces],
      maxFileSize: this.settings.maxFileSize ?? null,
      maxCacheSize: this.settings.maxCacheSize ?? null,
    };
  }
}

/** The policy that admits everything (no mirror settings given). */
export const OPEN_MIRROR_POLICY = new MirrorPolicy({
  allow: [],
  deny: [],
  licenses: [],
  localNamespaces: [],
  maxFileSize: undefined,
  maxCacheSize: undefined,
});

/**
 * Reads MIRROR_ALLOW, MIRROR_DENY, MIRROR_LICENSES, MIRROR_LOCAL_NAMESPACES, MIRROR_MAX_FILE_SIZE and
 * MIRROR_MAX_CACHE_SIZE. Problems are appended to `problems` so the whole configuration is reported at once
 * (config.ts's convention).
 */
export function parseMirrorPolicy(env: Record<string, string | undefined>, problems: string[]): MirrorPolicy {
  return new MirrorPolicy({
    allow: parsePatterns("MIRROR_ALLOW", env.MIRROR_ALLOW, problems),
    deny: parsePatterns("MIRROR_DENY", env.MIRROR_DENY, problems),
    licenses: commaList(env.MIRROR_LICENSES).map((license) => license.toLowerCase()),
    localNamespaces: commaList(env.MIRROR_LOCAL_NAMESPACES).map((owner) => owner.toLowerCase()),
    maxFileSize: parseSetting("MIRROR_MAX_FILE_SIZE", env.MIRROR_MAX_FILE_SIZE, problems),
    maxCacheSize: parseSetting("MIRROR_MAX_CACHE_SIZE", env.MIRROR_MAX_CACHE_SIZE, problems),
  });
}

/**
 * `meta-llama/*`, `*\/GGUF-*`, `datasets/HuggingFaceFW/*`: an unprefixed pattern is for models (as ids
 * are on the public hub's URLs); `datasets/` and `spaces/` (or an explicit `models/`) select the type. `*`
 * matches any run of characters within one segment; an owner alone (`meta-llama`, `datasets/HuggingFaceFW`)
 * means all its repositories (`models`, `datasets` and `spaces` are never owners on the public hub).
 */
export function parseRepoPattern(text: string): RepoPattern | string {
  const parts = text.split("/");
  let type: RepoType = "model";
  const prefixed = TYPE_PREFIXES[parts[0]!.toLowerCase()];
  if (prefixed && parts.length >= 2) {
    type = prefixed;
    parts.shift();
  } else if (parts.length === 3) {
    return `"${text}": the prefix must be models/, datasets/ or spaces/`;
  }
  if (parts.length === 1) parts.push("*");
  if (parts.length !== 2 || !parts.every((segment) => SEGMENT.test(segment))) {
    return `"${text}" is not a pattern like owner/name, meta-llama/* or datasets/*/GGUF-*`;
  }
  const source = parts.join("/");
  const body = parts.map((segment) => segment.split("*").map(escapeRegExp).join("[^/]*")).join("/");
  return { type, source, matcher: new RegExp(`^${body}$`, "i") };
}

/**
 * The policy from already validated lists (mirror-config.ts's MirrorSettings); a pattern parseRepoPattern
 * refuses throws, naming it, so a mismatch between the two parsers shows at start, not as a silent hole.
 */
export function mirrorPolicyFrom(lists: {
  allow: readonly string[];
  deny: readonly string[];
  licenses: readonly string[];
  localNamespaces: readonly string[];
  maxFileSize: number | undefined;
  maxCacheSize: number | undefined;
}): MirrorPolicy {
  const patterns = (name: string, list: readonly string[]) =>
    list.map((text) => {
      const parsed = parseRepoPattern(text);
      if (typeof parsed === "string") throw new Error(`${name}: ${parsed}.`);
      return parsed;
    });
  return new MirrorPolicy({
    allow: patterns("MIRROR_ALLOW", lists.allow),
    deny: patterns("MIRROR_DENY", lists.deny),
    licenses: lists.licenses.map((license) => license.toLowerCase()),
    localNamespaces: lists.localNamespaces.map((owner) => owner.toLowerCase()),
    maxFileSize: lists.maxFileSize,
    maxCacheSize: lists.maxCacheSize,
  });
}

/** Parses `512`, `10k`, `1.5M`, `2G`, `1T` (binary multiples; an optional `i`/`B`: `10GiB`, `10GB`). */
export function parseByteSize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(?:([kmgt])i?)?b?$/i.exec(text.trim());
  if (!match) return undefined;
  const exponent = match[2] ? "kmgt".indexOf(match[2].toLowerCase()) + 1 : 0;
  const bytes = Math.floor(Number(match[1]) * 1024 ** exponent);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${Number(value.toFixed(1))} ${units[unit]}`;
}

function matches(pattern: RepoPattern, type: RepoType, id: string): boolean {
  return pattern.type === type && pattern.matcher.test(id);
}

function render(pattern: RepoPattern): string {
  return `${PREFIX_OF[pattern.type]}${pattern.source}`;
}

function declaredLicenses(cardData: unknown): string[] {
  if (typeof cardData !== "object" || cardData === null) return [];
  const data = cardData as Record<string, unknown>;
  const listed = Array.isArray(data.license) ? data.license : [data.license];
  const licenses = listed.filter((value): value is string => typeof value === "string" && value !== "");
  // `license: other` names the actual licence in `license_name` (the public hub's card convention).
  if (
    licenses.some((license) => license.toLowerCase() === "other") &&
    typeof data.license_name === "string"
  ) {
    licenses.push(data.license_name);
  }
  return licenses.map((license) => license.trim().toLowerCase());
}

function parsePatterns(name: string, raw: string | undefined, problems: string[]): RepoPattern[] {
  const patterns: RepoPattern[] = [];
  for (const text of commaList(raw)) {
    const parsed = parseRepoPattern(text);
    if (typeof parsed === "string") problems.push(`${name}: ${parsed}.`);
    else patterns.push(parsed);
  }
  return patterns;
}

function parseSetting(name: string, raw: string | undefined, problems: string[]): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const bytes = parseByteSize(raw);
  if (bytes === undefined || bytes <= 0) {
    problems.push(`${name} must be a positive size in bytes (k, M, G, T suffixes allowed), got "${raw}".`);
    return undefined;
  }
  return bytes;
}

function commaList(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
}
