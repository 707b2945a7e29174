import { z } from "zod";
import type { AuditRecorder } from "../audit/audit-log.js";
import { parseInput } from "../http/validate.js";
import type { MetaTable } from "../store/meta-table.js";
import type { Store } from "../store/store.js";

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

/** Text of `min` to `max` characters (trimmed) on one line. */
const oneLine = (min: number, max: number) =>
  z
    .string()
    .transform((value) => value.trim())
    .refine((value) => value.length >= min && value.length <= max && !CONTROL.test(value), {
      error: `must be ${min} to ${max} characters on one line.`,
    });

/** A partial change: only the known fields, each valid (`PUT /api/admin/settings`). */
export const siteSettingsChange = z.strictObject({
  siteName: oneLine(1, MAX_SITE_NAME).optional(),
  notice: oneLine(0, MAX_NOTICE).optional(),
  signupPolicy: z
    .enum(SIGNUP_POLICIES, { error: `must be one of ${SIGNUP_POLICIES.join(", ")} or null.` })
    .nullable()
    .optional(),
});

export type SiteSettingsChange = z.output<typeof siteSettingsChange>;

/**
 * Site settings kept in the database's meta table (one JSON value): read on each use, so that a change on
 * one replica holds on all of them at once. `configuredSignupPolicy` is SIGNUP_POLICY, which the stored
 * override (when set) replaces. A change is audited (`site.settings`: which settings, from and to) in its
 * transaction.
 */
export function siteSettingsService(
  store: Pick<Store, "meta" | "transaction">,
  configuredSignupPolicy: SignupPolicy,
  audit?: AuditRecorder,
) {
  async function get(meta: MetaTable = store.meta): Promise<SiteSettings> {
    const raw = await meta.get(META_KEY);
    if (!raw) return { ...DEFAULTS };
    try {
      return { ...DEFAULTS, ...parseInput(siteSettingsChange, JSON.parse(raw)) };
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
    async update(change: SiteSettingsChange): Promise<SiteSettings> {
      return store.transaction(async (tx) => {
        const previous = await get(tx.meta);
        const next = { ...previous, ...change };
        await tx.meta.set(META_KEY, JSON.stringify(next));
        const changed = (Object.keys(change) as (keyof SiteSettings)[]).filter(
          (key) => previous[key] !== next[key],
        );
        await audit?.record(tx, {
          action: "site.settings",
          namespace: null,
          targetType: "site",
          target: null,
          details: Object.fromEntries(changed.map((key) => [key, { from: previous[key], to: next[key] }])),
        });
        return next;
      });
    },
  };
}

export type SiteSettingsService = ReturnType<typeof siteSettingsService>;
