import { InvalidInputError } from "../errors.js";
import type { MetaTable } from "../store/meta-table.js";

export const SIGNUP_POLICIES = ["open", "invite", "closed"] as const;
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number];

/** What a site administrator changes at run time (stored in the database, shared by every replica). */
export interface SiteSettings {
  /** Shown in the header and the page titles. */
  siteName: string;
  /** A line shown above every page (maintenance, terms); empty for none. */
  notice: string;
  /** Overrides SIGNUP_POLICY while set; null follows the configuration. */
  signupPolicy: SignupPolicy | null;
}

export const DEFAULT_SITE_NAME = "Modelhub";
const MAX_SITE_NAME = 60;
const MAX_NOTICE = 500;
const META_KEY = "site_settings";
const DEFAULTS: SiteSettings = { siteName: DEFAULT_SITE_NAME, notice: "", signupPolicy: null };

// Control characters (tabs and new lines included) never belong in a one-line name or notice.
const CONTROL = /[\u0000-\u001f\u007f]/;

function text(value: unknown, field: string, min: number, max: number): string {
  if (typeof value !== "string") throw new InvalidInputError(`"${field}" must be a string.`);
  const trimmed = value.trim();
  if (trimmed.length < min || trimmed.length > max || CONTROL.test(trimmed)) {
    throw new InvalidInputError(`"${field}" must be ${min} to ${max} characters on one line.`);
  }
  return trimmed;
}

/** Checks a partial change: only the known fields, each valid. */
export function parseSiteSettingsChange(input: unknown): Partial<SiteSettings> {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new InvalidInputError("Expected a JSON object.");
  const change: Partial<SiteSettings> = {};
  for (const [key, value] of Object.entries(input)) {
    if (key === "siteName") change.siteName = text(value, key, 1, MAX_SITE_NAME);
    else if (key === "notice") change.notice = text(value, key, 0, MAX_NOTICE);
    else if (key === "signupPolicy") {
      if (value !== null && !SIGNUP_POLICIES.includes(value as SignupPolicy))
        throw new InvalidInputError(`"signupPolicy" must be one of ${SIGNUP_POLICIES.join(", ")} or null.`);
      change.signupPolicy = value as SignupPolicy | null;
    } else
      throw new InvalidInputError(
        `Unknown field "${key.slice(0, 40)}": expected siteName, notice, signupPolicy.`,
      );
  }
  return change;
}

/**
 * Site settings kept in the database's meta table (one JSON value): read on each use, so that a change on
 * one replica holds on all of them at once. `configuredSignupPolicy` is SIGNUP_POLICY, which the stored
 * override (when set) replaces.
 */
export function siteSettingsService(meta: MetaTable, configuredSignupPolicy: SignupPolicy) {
  async function get(): Promise<SiteSettings> {
    const raw = await meta.get(META_KEY);
    if (!raw) return { ...DEFAULTS };
    try {
      return { ...DEFAULTS, ...parseSiteSettingsChange(JSON.parse(raw)) };
    } catch {
      // A value this version cannot read (written by hand, or by a newer one) falls back to the defaults.
      return { ...DEFAULTS };
    }
  }
  return {
    get,
    configuredSignupPolicy,
    async signupPolicy(): Promise<SignupPolicy> {
      return (await get()).signupPolicy ?? configuredSignupPolicy;
    },
    async update(input: unknown): Promise<SiteSettings> {
      const next = { ...(await get()), ...parseSiteSettingsChange(input) };
      await meta.set(META_KEY, JSON.stringify(next));
      return next;
    },
  };
}

export type SiteSettingsService = ReturnType<typeof siteSettingsService>;
