/**
 * The audit log's service: the recorder the acting domains write through (inside their transactions), and
 * the reading side: an organization's log for its admins, the whole site's for site admins, filtered and
 * paged newest first, or exported as JSON Lines; entries past the retention are deleted.
 */
import type { Actor } from "../auth/actor.js";
import type { Authorizer } from "../auth/authorize.js";
import { InvalidInputError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Queryable } from "../store/database.js";
import type { Store, StoreTransaction } from "../store/store.js";
import { currentAuditContext } from "./audit-context.js";
import {
  AUDIT_ACTIONS,
  type AuditEntryInput,
  type AuditedTransactions,
  type AuditRecorder,
} from "./audit-log.js";
import { type AuditEntry, type AuditQuery, createAuditTable } from "./audit-table.js";

export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
const MAX_PAGE = 1000;
const EXPORT_PAGE = 1000;

export interface AuditServiceDeps {
  store: Store;
  authorizer: Authorizer;
  /** Days entries are kept (AUDIT_RETENTION_DAYS); default 365. */
  retentionDays?: number;
  now?: () => Date;
  logger?: Logger;
}

/** The filters a caller may give (query parameters), checked. */
export interface AuditFilters {
  action?: string;
  actor?: string;
  target?: string;
  since?: string;
  until?: string;
  before?: string;
  limit?: string;
}

/**
 * Writes entries in the caller's transaction, naming the request's caller (audit-context.ts) or, without a
 * request (the admin CLI, a background job), the operator. The admin CLI uses it alone: it reads nothing.
 */
export function createAuditRecorder(now: () => Date = () => new Date()): AuditRecorder {
  return {
    async record(tx: Pick<StoreTransaction, "audit">, entry: AuditEntryInput): Promise<void> {
      const context = currentAuditContext();
      const actor: Actor = context?.actor ?? { kind: "operator" };
      await tx.audit.insert(
        {
          namespace: entry.namespace,
          action: entry.action,
          // Without a request (the admin CLI, a background job), the operator acted.
          actorKind: actor.kind,
          actorId: actor.kind === "user" ? actor.user.id : null,
          actorName: entry.actorName ?? (actor.kind === "user" ? actor.user.name : null),
          tokenId:
            actor.kind === "user" && actor.credential.kind === "token" ? actor.credential.token.id : null,
          targetType: entry.targetType,
          target: entry.target,
          details: entry.details ?? {},
          ip: context?.ip ?? null,
          userAgent: context?.userAgent ?? null,
        },
        now().toISOString(),
      );
    },
  };
}

/**
 * Transactions on `db` whose entries the recorder writes into the same transaction (the audit table bound to
 * it): for the domains whose tables are built on a Queryable rather than bound by the store (router/).
 */
export function auditedTransactions(db: Queryable, recorder: AuditRecorder): AuditedTransactions {
  return {
    transaction: (work, options) =>
      db.transaction(
        (tx) => work(tx, (entry) => recorder.record({ audit: createAuditTable(tx) }, entry)),
        options,
      ),
  };
}

/**
 * Records an operation that is not one database transaction (a re-scan's queueing, a mirror cache's eviction,
 * a blob collection: files and several statements): its entry, with its outcome, in a transaction of its own
 * once it has succeeded. A failure part-way leaves no entry; what it did is told by the hub's log.
 */
export function recordDone(
  store: Pick<Store, "transaction">,
  recorder: AuditRecorder,
  entry: AuditEntryInput,
): Promise<void> {
  return store.transaction((tx) => recorder.record(tx, entry));
}

export function createAuditService(deps: AuditServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const retentionDays = deps.retentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS;
  const recorder = createAuditRecorder(now);

  function parseQuery(filters: AuditFilters, namespace: string | undefined): AuditQuery {
    const limit = filters.limit === undefined ? 100 : Number(filters.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
      throw new InvalidInputError(`limit must be a whole number from 1 to ${MAX_PAGE}.`);
    }
    const before = filters.before === undefined ? undefined : Number(filters.before);
    if (before !== undefined && !Number.isSafeInteger(before)) {
      throw new InvalidInputError("before must be an entry id (the last id of the previous page).");
    }
    if (filters.action !== undefined && !(AUDIT_ACTIONS as readonly string[]).includes(filters.action)) {
      throw new InvalidInputError(
        `Unknown action "${filters.action.slice(0, 60)}": one of ${AUDIT_ACTIONS.join(", ")}.`,
      );
    }
    for (const [name, value] of [
      ["since", filters.since],
      ["until", filters.until],
    ] as const) {
      if (value !== undefined && Number.isNaN(Date.parse(value))) {
        throw new InvalidInputError(`${name} must be an ISO 8601 date or time, e.g. 2026-11-29T18:00:00Z.`);
      }
    }
    const iso = (value: string | undefined) =>
      value === undefined ? undefined : new Date(value).toISOString();
    return {
      namespace,
      action: filters.action,
      actor: filters.actor,
      target: filters.target,
      since: iso(filters.since),
      until: iso(filters.until),
      before,
      limit,
    };
  }

  async function authorizeScope(actor: Actor, org: string | undefined): Promise<void> {
    await deps.authorizer.authorize(
      actor,
      "manage",
      org === undefined ? { kind: "site" } : { kind: "org", name: org },
    );
  }

  return {
    recorder,
    /** A page of entries, newest first; `org` undefined: the whole site's (site admins). */
    async list(
      actor: Actor,
      org: string | undefined,
      filters: AuditFilters,
    ): Promise<{ entries: AuditEntry[]; next?: number }> {
      await authorizeScope(actor, org);
      const query = parseQuery(filters, org);
      const entries = await deps.store.audit.list(query);
      return entries.length === query.limit
        ? { entries, next: entries[entries.length - 1]!.id }
        : { entries };
    },
    /** Every entry the filters select, newest first, as JSON Lines (read a page at a time). */
    async *exportLines(actor: Actor, org: string | undefined, filters: AuditFilters): AsyncGenerator<string> {
      await authorizeScope(actor, org);
      const query = { ...parseQuery({ ...filters, limit: undefined }, org), limit: EXPORT_PAGE };
      for (;;) {
        const entries = await deps.store.audit.list(query);
        for (const entry of entries) yield `${JSON.stringify(entry)}\n`;
        if (entries.length < EXPORT_PAGE) return;
        query.before = entries[entries.length - 1]!.id;
      }
    },
    /** Deletes entries older than the retention (start-hub.ts runs it hourly). */
    async prune(): Promise<number> {
      const before = new Date(now().getTime() - retentionDays * 24 * 60 * 60 * 1000).toISOString();
      return deps.store.audit.pruneBefore(before);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
