import type { Queryable } from "../store/database.js";

export interface AuditRow {
  namespace: string | null;
  action: string;
  actorKind: string;
  actorId: number | null;
  actorName: string | null;
  tokenId: number | null;
  targetType: string;
  target: string | null;
  details: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
}

export interface AuditEntry extends AuditRow {
  id: number;
  createdAt: string;
}

export interface AuditQuery {
  /** Only this namespace's entries (an organization's log); undefined: every entry (the site's). */
  namespace?: string;
  action?: string;
  actor?: string;
  target?: string;
  /** ISO 8601 bounds on created_at, inclusive. */
  since?: string;
  until?: string;
  /** Entries older than this id (the previous page's last): newest first. */
  before?: number;
  limit: number;
}

interface Stored {
  id: number | string;
  created_at: string;
  namespace: string | null;
  action: string;
  actor_kind: string;
  actor_id: number | string | null;
  actor_name: string | null;
  token_id: number | string | null;
  target_type: string;
  target: string | null;
  details: string;
  ip: string | null;
  user_agent: string | null;
}

const toEntry = (row: Stored): AuditEntry => ({
  id: Number(row.id),
  createdAt: row.created_at,
  namespace: row.namespace,
  action: row.action,
  actorKind: row.actor_kind,
  actorId: row.actor_id === null ? null : Number(row.actor_id),
  actorName: row.actor_name,
  tokenId: row.token_id === null ? null : Number(row.token_id),
  targetType: row.target_type,
  target: row.target,
  details: JSON.parse(row.details) as Record<string, unknown>,
  ip: row.ip,
  userAgent: row.user_agent,
});

/** The audit log (migration 31): insert, read newest first with filters, and drop what is past retention. */
export function createAuditTable(q: Queryable) {
  return {
    async insert(row: AuditRow, createdAt: string): Promise<void> {
      await q.run(
        `INSERT INTO audit_log (created_at, namespace, action, actor_kind, actor_id, actor_name, token_id,
           target_type, target, details, ip, user_agent)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          createdAt,
          row.namespace?.toLowerCase() ?? null,
          row.action,
          row.actorKind,
          row.actorId,
          row.actorName,
          row.tokenId,
          row.targetType,
          row.target,
          JSON.stringify(row.details),
          row.ip,
          row.userAgent,
        ],
      );
    },
    async list(query: AuditQuery): Promise<AuditEntry[]> {
      const where: string[] = [];
      const params: unknown[] = [];
      const add = (sql: string, value: unknown) => {
        where.push(sql);
        params.push(value);
      };
      if (query.namespace !== undefined) add("namespace = ?", query.namespace.toLowerCase());
      if (query.action !== undefined) add("action = ?", query.action);
      if (query.actor !== undefined) add("lower(actor_name) = ?", query.actor.toLowerCase());
      if (query.target !== undefined) add("lower(target) = ?", query.target.toLowerCase());
      if (query.since !== undefined) add("created_at >= ?", query.since);
      if (query.until !== undefined) add("created_at <= ?", query.until);
      if (query.before !== undefined) add("id < ?", query.before);
      const rows = await q.all<Stored>(
        `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`,
        [...params, query.limit],
      );
      return rows.map(toEntry);
    },
    /** Deletes entries created before `before` (the retention), in slices so no delete holds the lock long. */
    async pruneBefore(before: string): Promise<number> {
      let deleted = 0;
      for (;;) {
        const slice = await q.run(
          "DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE created_at < ? ORDER BY id LIMIT 5000)",
          [before],
        );
        deleted += slice;
        if (slice < 5000) return deleted;
      }
    },
  };
}

export type AuditTable = ReturnType<typeof createAuditTable>;
