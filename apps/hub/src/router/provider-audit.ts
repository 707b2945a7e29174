/**
 * What the audit log tells of a change to an inference provider (site or organization): which settings
 * changed, and how the key did, never the key, its sealed form, its masked hint, nor a URL's path or
 * credentials (a base URL's path or health path may carry a token): only the base URL's origin.
 */
import type { AuditedTransactions } from "../audit/audit-log.js";
import type { Queryable } from "../store/database.js";

/** A provider's settings as stored, site or organization (no key variable for the latter). */
export interface AuditedProviderSettings {
  baseUrl: string;
  apiKeySealed: string | null;
  apiKeyEnv?: string | null;
  healthPath: string;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  hostedFailover: boolean;
}

/** Where the key comes from, as the log names it (a variable's name is no secret; its value is). */
function keySource(settings: AuditedProviderSettings): string {
  if (settings.apiKeySealed !== null) return "stored";
  if (settings.apiKeyEnv) return `environment ${settings.apiKeyEnv}`;
  return "none";
}

/** How the key changed: undefined when it did not (kept, or the same variable named again). */
function keyChange(
  previous: AuditedProviderSettings,
  next: AuditedProviderSettings,
  keyGiven: boolean,
): string | undefined {
  const from = keySource(previous);
  const to = keySource(next);
  if (keyGiven && from === "stored" && to === "stored") return "replaced";
  if (from === to) return undefined;
  if (to === "stored") return from === "none" ? "set" : "moved from the environment to the hub";
  if (to === "none") return "removed";
  return from === "stored" ? `moved to the ${to}` : `now read from the ${to}`;
}

/** The details of a provider's creation: where it points, its key's source and its settings. */
function created(next: AuditedProviderSettings): Record<string, unknown> {
  return {
    baseUrlOrigin: new URL(next.baseUrl).origin,
    key: keySource(next),
    headersTimeoutMs: next.headersTimeoutMs,
    idleTimeoutMs: next.idleTimeoutMs,
    hostedFailover: next.hostedFailover,
  };
}

/** The details of a provider's update: the names of the settings that changed, with safe before/after values. */
function updated(
  previous: AuditedProviderSettings,
  next: AuditedProviderSettings,
  keyGiven: boolean,
): Record<string, unknown> {
  const changed: string[] = [];
  const details: Record<string, unknown> = {};
  if (previous.baseUrl !== next.baseUrl) {
    changed.push("baseUrl");
    const from = new URL(previous.baseUrl).origin;
    const to = new URL(next.baseUrl).origin;
    if (from !== to) details.baseUrlOrigin = { from, to };
  }
  if (previous.healthPath !== next.healthPath) changed.push("healthPath");
  for (const field of ["headersTimeoutMs", "idleTimeoutMs", "hostedFailover"] as const) {
    if (previous[field] !== next[field]) {
      changed.push(field);
      details[field] = { from: previous[field], to: next[field] };
    }
  }
  const key = keyChange(previous, next, keyGiven);
  if (key !== undefined) {
    changed.push("apiKey");
    details.key = key;
  }
  return { changed, ...details };
}

/** The action and details of putting a provider: created, or which settings changed. */
export function providerPutEntry(
  previous: AuditedProviderSettings | undefined,
  next: AuditedProviderSettings,
  keyGiven: boolean,
): { action: "provider.create" | "provider.update"; details: Record<string, unknown> } {
  return previous
    ? { action: "provider.update", details: updated(previous, next, keyGiven) }
    : { action: "provider.create", details: created(next) };
}

/** Without an audit log (tests, the local engine's reads): the writes in their transaction, unlogged. */
export function unaudited(db: Queryable): AuditedTransactions {
  return { transaction: (work, options) => db.transaction((tx) => work(tx, async () => {}), options) };
}
