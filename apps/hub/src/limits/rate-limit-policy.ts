/**
 * Who may make how many requests of which kind per window: the public hub's three buckets (Hub API calls,
 * `/resolve/` downloads, web pages) over fixed 5-minute windows, with numbers per role and per organization
 * (docs/decisions/rate-limits.md). Parsed from RATE_LIMITS (JSON); pure data and pure functions.
 */
import type { Actor } from "../auth/actor.js";

export const RATE_LIMIT_BUCKETS = ["api", "resolvers", "pages"] as const;
export type RateLimitBucket = (typeof RATE_LIMIT_BUCKETS)[number];

/** Requests allowed per window in each bucket. */
export type BucketLimits = Record<RateLimitBucket, number>;

export interface RateLimitPolicy {
  /** Length of the fixed window, in seconds (the public hub: 300). */
  windowSeconds: number;
  anonymous: BucketLimits;
  user: BucketLimits;
  /** Site administrators. */
  admin: BucketLimits;
  /** Members of an organization get its numbers where they are higher than their role's (as on the public hub). */
  organizations: Record<string, Partial<BucketLimits>>;
  /** Key anonymous callers by the first X-Forwarded-For address (only behind a proxy that sets it). */
  trustForwardedFor: boolean;
  /** How often each replica shares its counts through the database, in milliseconds. */
  syncMs: number;
}

/** The public hub's numbers (docs: "Hub Rate limits", Anonymous / Free / PRO rows). */
export const PUBLIC_HUB_POLICY: RateLimitPolicy = {
  windowSeconds: 300,
  anonymous: { api: 500, resolvers: 3000, pages: 100 },
  user: { api: 1000, resolvers: 5000, pages: 200 },
  admin: { api: 2500, resolvers: 12000, pages: 400 },
  organizations: {},
  trustForwardedFor: false,
  syncMs: 1000,
};

export class RateLimitConfigError extends Error {
  constructor(message: string) {
    super(`RATE_LIMITS: ${message}`);
    this.name = "RateLimitConfigError";
  }
}

/**
 * RATE_LIMITS: unset, "" or "off" disables rate limiting; "default" takes the public hub's numbers; a JSON
 * object overrides them, e.g. `{"windowSeconds":300,"user":{"api":2000},"organizations":{"acme":{"api":6000}}}`.
 */
export function parseRateLimitPolicy(raw: string | undefined): RateLimitPolicy | undefined {
  const text = raw?.trim() ?? "";
  if (text === "" || text === "off") return undefined;
  if (text === "default") return PUBLIC_HUB_POLICY;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RateLimitConfigError('must be "off", "default" or a JSON object (it is not valid JSON).');
  }
  if (!isRecord(value)) throw new RateLimitConfigError("must be a JSON object.");
  const known = new Set([
    "windowSeconds",
    "anonymous",
    "user",
    "admin",
    "organizations",
    "trustForwardedFor",
    "syncMs",
  ]);
  for (const key of Object.keys(value)) {
    if (!known.has(key))
      throw new RateLimitConfigError(`unknown key "${key}" (known: ${[...known].join(", ")}).`);
  }
  const base = PUBLIC_HUB_POLICY;
  const organizations: Record<string, Partial<BucketLimits>> = {};
  if (value.organizations !== undefined) {
    if (!isRecord(value.organizations)) throw new RateLimitConfigError("organizations must be an object.");
    for (const [org, limits] of Object.entries(value.organizations)) {
      organizations[org.toLowerCase()] = parseBuckets(limits, `organizations.${org}`, {});
    }
  }
  return {
    windowSeconds: positive(value.windowSeconds, "windowSeconds", base.windowSeconds),
    anonymous: { ...base.anonymous, ...parseBuckets(value.anonymous, "anonymous", {}) },
    user: { ...base.user, ...parseBuckets(value.user, "user", {}) },
    admin: { ...base.admin, ...parseBuckets(value.admin, "admin", {}) },
    organizations,
    trustForwardedFor: value.trustForwardedFor === true,
    syncMs: positive(value.syncMs, "syncMs", base.syncMs),
  };
}

/** The caller's allowance in `bucket`, or undefined for no limit (the operator's ADMIN_TOKEN). */
export function limitFor(policy: RateLimitPolicy, actor: Actor, bucket: RateLimitBucket): number | undefined {
  if (actor.kind === "operator") return undefined;
  if (actor.kind === "anonymous") return policy.anonymous[bucket];
  let limit = actor.user.isAdmin ? policy.admin[bucket] : policy.user[bucket];
  for (const membership of actor.memberships) {
    const org = policy.organizations[membership.org.name.toLowerCase()]?.[bucket];
    if (org !== undefined && org > limit) limit = org;
  }
  return limit;
}

function parseBuckets(value: unknown, where: string, fallback: Partial<BucketLimits>): Partial<BucketLimits> {
  if (value === undefined) return fallback;
  if (!isRecord(value))
    throw new RateLimitConfigError(`${where} must be an object of ${RATE_LIMIT_BUCKETS.join(", ")}.`);
  const out: Partial<BucketLimits> = {};
  for (const [key, count] of Object.entries(value)) {
    if (!(RATE_LIMIT_BUCKETS as readonly string[]).includes(key)) {
      throw new RateLimitConfigError(
        `${where}.${key}: unknown bucket (known: ${RATE_LIMIT_BUCKETS.join(", ")}).`,
      );
    }
    out[key as RateLimitBucket] = positive(count, `${where}.${key}`, 0);
  }
  return out;
}

function positive(value: unknown, where: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new RateLimitConfigError(`${where} must be a positive integer, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
