import { isAbsolute, resolve } from "node:path";
import { parseImageOrigins } from "./http/content-security-policy.js";
import { normalizePublicUrl, PublicUrlError } from "./http/public-url.js";
import { parseRateLimitPolicy, type RateLimitPolicy } from "./limits/rate-limit-policy.js";
import { parseStorageQuotas, type StorageQuotaPolicy } from "./limits/storage-quotas.js";
import { type MirrorSettings, parseMirrorSettings } from "./mirror/mirror-config.js";
import type { LocalEngineLimits } from "./router/local-engine.js";
import { DEFAULT_USAGE_RETENTION_DAYS } from "./router/usage-table.js";
import { parseScanSettings, type ScanSettings } from "./scanning/scan-config.js";
import { type BlobSettings, parseBlobSettings } from "./storage/blob-store-config.js";

/** The configuration problem, named precisely; the server prints it and exits. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

export interface HubConfig extends BlobSettings {
  port: number;
  host: string;
  /** PUBLIC_URL: where users reach the hub; undefined means the listening address. */
  publicUrl: string | undefined;
  /** SPACES_PORT: the spaces origin's port (static spaces' sites); default PORT + 1 (0 with PORT=0), or "off". */
  spacesPort: number | "off";
  /** SPACES_URL: where browsers reach the spaces origin; undefined means its listening address. */
  spacesUrl: string | undefined;
  dataDir: string;
  /** DATABASE_URL: `postgres://...` selects PostgreSQL; unset keeps SQLite in DATA_DIR. */
  databaseUrl: string | undefined;
  adminToken: string | undefined;
  /** SECRETS_KEY: seals own inference providers' API keys (router/own-provider-secrets.ts); unset: DATA_DIR/secrets.key. */
  secretsKey: string | undefined;
  /** LOCAL_PROVIDER=on and its LOCAL_PROVIDER_* limits: the built-in llama.cpp provider (off by default). */
  localProvider: { limits: Partial<LocalEngineLimits>; maxModelBytes?: number } | undefined;
  /** Provider name -> API key, from the environment variables the provider registry names. */
  providerKeys: Record<string, string>;
  /** PROVIDER_BASE_URLS: provider name -> base URL replacing the registry's (a gateway, a private deployment). */
  providerBaseUrls: Record<string, string>;
  logLevel: "debug" | "info" | "warn" | "error";
  /** SIGNUP_POLICY: who may create an account through the API (`closed` by default: admins do). */
  signupPolicy: "open" | "invite" | "closed";
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: single sign-on (all three, or none). */
  oidc: { issuer: string; clientId: string; clientSecret: string } | undefined;
  /** USAGE_RETENTION_DAYS: days per-call usage rows are kept (daily totals are kept for ever). */
  usageRetentionDays: number;
  /**
   * KEEP_ALIVE_SECONDS: how long an idle client connection is kept open (default 65). Longer than the idle
   * timeout of the load balancer or proxy in front (nginx's upstream keepalive and AWS ALB: 60 s), so that it
   * closes first and never sends a request on a connection the hub is closing.
   */
  keepAliveSeconds: number;
  /** LFS_MULTIPART_CHUNK_MB: LFS objects larger than this are uploaded in parts of this size (multipart). */
  lfsMultipartChunkBytes: number | undefined;
  /** CARD_IMAGE_ORIGINS: origins model cards' images may load from besides the hub (none by default). */
  cardImageOrigins: string[];
  /** UPSTREAM_URL and the MIRROR_* settings: the mirror of an upstream hub; undefined without UPSTREAM_URL. */
  mirror: MirrorSettings | undefined;
  /** SCAN_POLICY and SCAN_CONCURRENCY: the content scanner (scanning/, docs/decisions/scanning.md). */
  scanning: ScanSettings;
  /**
   * WEBHOOK_ALLOW_PRIVATE=1: webhooks may post to loopback, link-local and private addresses (receivers on
   * the hub's own network). Off by default: a webhook is a request the hub makes for any user.
   */
  webhookAllowPrivate: boolean;
  /**
   * ORG_PROVIDERS_ALLOW_PRIVATE=1: organizations' own inference providers may be at loopback, link-local and
   * private addresses (their servers on the hub's own network). Off by default: an organization's admin is
   * not the site's (router/org-provider-target.ts).
   */
  orgProvidersAllowPrivate: boolean;
  /** RATE_LIMITS: "off" (default), "default" (the public hub's numbers) or JSON (limits/rate-limit-policy.ts). */
  rateLimits: RateLimitPolicy | undefined;
  /** AUDIT_RETENTION_DAYS: days audit log entries are kept (default 365). */
  auditRetentionDays: number | undefined;
  /** STORAGE_QUOTAS: "off" (default), "default" (the public hub's) or JSON (limits/storage-quotas.ts). */
  storageQuotas: StorageQuotaPolicy | undefined;
}

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = "127.0.0.1";
export const DEFAULT_KEEP_ALIVE_SECONDS = 65;
const MIN_ADMIN_TOKEN_LENGTH = 16;

export interface ParseConfigOptions {
  /** Where a relative DATA_DIR (and the default `.data`) is resolved from. */
  repoRoot: string;
  /** Provider name -> name of the environment variable holding its key. */
  providerKeyVariables: Record<string, string>;
}

/** Validates the whole environment at once; throws ConfigError listing every problem found. */
export function parseConfig(env: Record<string, string | undefined>, options: ParseConfigOptions): HubConfig {
  const problems: string[] = [];
  let port = DEFAULT_PORT;
  if (env.PORT !== undefined && env.PORT !== "") {
    port = Number(env.PORT);
    if (!/^\d{1,5}$/.test(env.PORT) || port > 65535)
      problems.push(`PORT must be 0-65535, got "${env.PORT}".`);
  }
  const host = env.HOST || DEFAULT_HOST;
  const dataDirRaw = env.DATA_DIR || ".data";
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(options.repoRoot, dataDirRaw);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/[^/]/.test(databaseUrl)) {
    // Never echo the value: it may hold a password.
    problems.push("DATABASE_URL must be a postgres:// URL (leave it unset for SQLite in DATA_DIR).");
  }
  let publicUrl: string | undefined;
  if (env.PUBLIC_URL) {
    try {
      publicUrl = normalizePublicUrl(env.PUBLIC_URL);
    } catch (error) {
      if (!(error instanceof PublicUrlError)) throw error;
      problems.push(error.message);
    }
  }
  // The spaces origin: another port of the same host by default, so a space's script is another origin.
  let spacesPort: number | "off" = port === 0 ? 0 : port + 1;
  if (env.SPACES_PORT === "off") spacesPort = "off";
  else if (env.SPACES_PORT) {
    spacesPort = Number(env.SPACES_PORT);
    if (!/^\d{1,5}$/.test(env.SPACES_PORT) || spacesPort > 65535 || (spacesPort === port && port !== 0))
      problems.push(
        `SPACES_PORT must be 0-65535 and differ from PORT (or "off" to serve no spaces' sites), got "${env.SPACES_PORT}".`,
      );
  } else if (port === 65535)
    problems.push("PORT=65535 leaves no port for the spaces origin: set SPACES_PORT.");
  let spacesUrl: string | undefined;
  if (env.SPACES_URL) {
    try {
      spacesUrl = normalizePublicUrl(env.SPACES_URL);
      if (publicUrl && new URL(spacesUrl).origin === new URL(publicUrl).origin)
        problems.push(
          "SPACES_URL must be another origin than PUBLIC_URL: spaces' scripts must not run as the hub.",
        );
    } catch (error) {
      if (!(error instanceof PublicUrlError)) throw error;
      problems.push(`SPACES_URL: ${error.message}`);
    }
  }
  const adminToken = env.ADMIN_TOKEN || undefined;
  const localProvider = localProviderSettings(env, problems);
  const secretsKey = env.SECRETS_KEY || undefined;
  // Never echo the value: it is a secret.
  if (secretsKey !== undefined && secretsKey.length < 32)
    problems.push("SECRETS_KEY must be at least 32 characters long.");
  if (adminToken !== undefined && adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    problems.push(`ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters long.`);
  }
  // A bearer token is read up to the first whitespace: such a token would show as enabled and never match.
  if (adminToken !== undefined && /[\s\p{Cc}]/u.test(adminToken)) {
    problems.push("ADMIN_TOKEN must not contain whitespace or control characters.");
  }
  let usageRetentionDays = DEFAULT_USAGE_RETENTION_DAYS;
  if (env.USAGE_RETENTION_DAYS) {
    usageRetentionDays = Number(env.USAGE_RETENTION_DAYS);
    if (!/^\d{1,5}$/.test(env.USAGE_RETENTION_DAYS) || usageRetentionDays < 1)
      problems.push(
        `USAGE_RETENTION_DAYS must be a whole number of days >= 1, got "${env.USAGE_RETENTION_DAYS}".`,
      );
  }
  let keepAliveSeconds = DEFAULT_KEEP_ALIVE_SECONDS;
  if (env.KEEP_ALIVE_SECONDS) {
    keepAliveSeconds = Number(env.KEEP_ALIVE_SECONDS);
    if (!/^\d{1,5}$/.test(env.KEEP_ALIVE_SECONDS) || keepAliveSeconds < 1 || keepAliveSeconds > 3600)
      problems.push(
        `KEEP_ALIVE_SECONDS must be a whole number of seconds from 1 to 3600, got "${env.KEEP_ALIVE_SECONDS}".`,
      );
  }
  let lfsMultipartChunkBytes: number | undefined;
  if (env.LFS_MULTIPART_CHUNK_MB) {
    const mb = Number(env.LFS_MULTIPART_CHUNK_MB);
    if (!/^\d{1,6}$/.test(env.LFS_MULTIPART_CHUNK_MB) || mb < 1) {
      problems.push(
        `LFS_MULTIPART_CHUNK_MB must be a whole number of MiB >= 1, got "${env.LFS_MULTIPART_CHUNK_MB}".`,
      );
    } else lfsMultipartChunkBytes = mb * 1024 * 1024;
  }
  const logLevel = (env.LOG_LEVEL || "info") as HubConfig["logLevel"];
  if (!["debug", "info", "warn", "error"].includes(logLevel)) {
    problems.push("LOG_LEVEL must be one of debug, info, warn, error.");
  }
  const providerKeys: Record<string, string> = {};
  for (const [provider, variable] of Object.entries(options.providerKeyVariables)) {
    const key = env[variable]?.trim();
    if (key) providerKeys[provider] = key;
  }
  const providerBaseUrls = parseProviderBaseUrls(
    env.PROVIDER_BASE_URLS,
    Object.keys(options.providerKeyVariables),
    problems,
  );
  const signupPolicy = (env.SIGNUP_POLICY || "closed") as HubConfig["signupPolicy"];
  if (!["open", "invite", "closed"].includes(signupPolicy)) {
    problems.push("SIGNUP_POLICY must be one of open, invite, closed.");
  }
  let oidc: HubConfig["oidc"];
  const oidcValues = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].map((v) => v || undefined);
  if (oidcValues.every((v) => v !== undefined)) {
    const [issuer, clientId, clientSecret] = oidcValues as [string, string, string];
    if (!URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol))
      problems.push("OIDC_ISSUER must be the provider's http(s) URL.");
    else oidc = { issuer, clientId, clientSecret };
  } else if (oidcValues.some((v) => v !== undefined)) {
    problems.push("Single sign-on needs all of OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.");
  }
  const blobSettings = parseBlobSettings(env, problems);
  const cardImageOrigins = parseImageOrigins(env.CARD_IMAGE_ORIGINS, problems);
  const mirror = parseMirrorSettings(env, problems);
  const scanning = parseScanSettings(env, problems);
  const orgProvidersAllowPrivate = ["1", "true", "yes"].includes(
    (env.ORG_PROVIDERS_ALLOW_PRIVATE ?? "").toLowerCase(),
  );
  if (
    env.ORG_PROVIDERS_ALLOW_PRIVATE &&
    !orgProvidersAllowPrivate &&
    !["0", "false", "no"].includes(env.ORG_PROVIDERS_ALLOW_PRIVATE.toLowerCase())
  ) {
    problems.push(
      `ORG_PROVIDERS_ALLOW_PRIVATE must be 1 or 0 (true or false), got "${env.ORG_PROVIDERS_ALLOW_PRIVATE}".`,
    );
  }
  const webhookAllowPrivate = ["1", "true", "yes"].includes((env.WEBHOOK_ALLOW_PRIVATE ?? "").toLowerCase());
  if (
    env.WEBHOOK_ALLOW_PRIVATE &&
    !webhookAllowPrivate &&
    !["0", "false", "no"].includes(env.WEBHOOK_ALLOW_PRIVATE.toLowerCase())
  ) {
    problems.push(
      `WEBHOOK_ALLOW_PRIVATE must be 1 or 0 (true or false), got "${env.WEBHOOK_ALLOW_PRIVATE}".`,
    );
  }
  let auditRetentionDays: number | undefined;
  if (env.AUDIT_RETENTION_DAYS) {
    auditRetentionDays = Number(env.AUDIT_RETENTION_DAYS);
    if (!/^\d{1,6}$/.test(env.AUDIT_RETENTION_DAYS) || auditRetentionDays < 1)
      problems.push(
        `AUDIT_RETENTION_DAYS must be a whole number of days >= 1, got "${env.AUDIT_RETENTION_DAYS}".`,
      );
  }
  let rateLimits: RateLimitPolicy | undefined;
  try {
    rateLimits = parseRateLimitPolicy(env.RATE_LIMITS);
  } catch (error) {
    problems.push((error as Error).message);
  }
  let storageQuotas: StorageQuotaPolicy | undefined;
  try {
    storageQuotas = parseStorageQuotas(env.STORAGE_QUOTAS);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n- ${problems.join("\n- ")}`);
  return {
    port,
    host,
    publicUrl,
    spacesPort,
    spacesUrl,
    dataDir,
    databaseUrl,
    adminToken,
    secretsKey,
    localProvider,
    providerKeys,
    providerBaseUrls,
    logLevel,
    usageRetentionDays,
    keepAliveSeconds,
    signupPolicy,
    oidc,
    lfsMultipartChunkBytes,
    cardImageOrigins,
    mirror,
    scanning,
    webhookAllowPrivate,
    orgProvidersAllowPrivate,
    rateLimits,
    auditRetentionDays,
    storageQuotas,
    ...blobSettings,
  };
}

/**
 * `PROVIDER_BASE_URLS=together=https://gateway.internal/together,fal-ai=http://127.0.0.1:7070/fal-ai`: where
 * each named provider is reached instead of its public base URL. Every entry is checked: a known provider, once,
 * and an http(s) URL without credentials (they would be logged with the URL; keys go in `<PROVIDER>_API_KEY`).
 */
function parseProviderBaseUrls(
  raw: string | undefined,
  providers: readonly string[],
  problems: string[],
): Record<string, string> {
  const urls: Record<string, string> = {};
  if (!raw?.trim()) return urls;
  for (const entry of raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    const equals = entry.indexOf("=");
    const provider = equals > 0 ? entry.slice(0, equals).trim() : "";
    const url = equals > 0 ? entry.slice(equals + 1).trim() : "";
    if (!provider || !url) {
      problems.push(`PROVIDER_BASE_URLS entries are provider=url, got "${entry}".`);
    } else if (!providers.includes(provider)) {
      problems.push(`PROVIDER_BASE_URLS names an unknown provider "${provider}".`);
    } else if (provider in urls) {
      problems.push(`PROVIDER_BASE_URLS names "${provider}" twice.`);
    } else if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      problems.push(`PROVIDER_BASE_URLS: the URL of "${provider}" must be an http(s) URL.`);
    } else if (new URL(url).username || new URL(url).password) {
      problems.push(`PROVIDER_BASE_URLS: the URL of "${provider}" must not carry credentials.`);
    } else {
      urls[provider] = url.replace(/\/+$/, "");
    }
  }
  return urls;
}

/** LOCAL_PROVIDER=on|off and its limits, each a positive whole number (docs/decisions/local-provider.md). */
function localProviderSettings(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): HubConfig["localProvider"] {
  const switched = (env.LOCAL_PROVIDER ?? "off").toLowerCase();
  if (switched !== "on" && switched !== "off") {
    problems.push(`LOCAL_PROVIDER must be "on" or "off", not "${env.LOCAL_PROVIDER}".`);
    return undefined;
  }
  if (switched === "off") return undefined;
  const whole = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === "") return undefined;
    if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) {
      problems.push(`${name} must be a whole number of at least 1, not "${raw}".`);
      return undefined;
    }
    return Number(raw);
  };
  const idleSeconds = whole("LOCAL_PROVIDER_IDLE_SECONDS");
  const answerSeconds = whole("LOCAL_PROVIDER_ANSWER_SECONDS");
  const limits: Partial<LocalEngineLimits> = {
    concurrency: whole("LOCAL_PROVIDER_CONCURRENCY"),
    queue: whole("LOCAL_PROVIDER_QUEUE"),
    idleMs: idleSeconds === undefined ? undefined : idleSeconds * 1000,
    contextSize: whole("LOCAL_PROVIDER_CONTEXT"),
    threads: whole("LOCAL_PROVIDER_THREADS"),
    maxLoadedModels: whole("LOCAL_PROVIDER_MAX_MODELS"),
    answerMs: answerSeconds === undefined ? undefined : answerSeconds * 1000,
  };
  return {
    limits: Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)),
    maxModelBytes: whole("LOCAL_PROVIDER_MAX_MODEL_BYTES"),
  };
}
