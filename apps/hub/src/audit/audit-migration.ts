/**
 * Migration 31: the audit log. Its own file so that its domain owns its schema; store/migrations.ts lists it
 * in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests replay migrations over a database
 * that already holds them.
 *
 * - `audit_log`: one row per audited action, written in the transaction of the action (audit/audit-log.ts).
 *   Append-only: the hub only inserts, and deletes rows older than the retention (AUDIT_RETENTION_DAYS).
 *   `namespace` is the user or organization the action concerns (lower-cased): an organization's admins read
 *   the rows of their organization's name, site admins read them all.
 */
const COMMON = (id: string) => `
  CREATE TABLE IF NOT EXISTS audit_log (
    id ${id},
    created_at TEXT NOT NULL,
    namespace TEXT,
    action TEXT NOT NULL,
    actor_kind TEXT NOT NULL,
    actor_id INTEGER,
    actor_name TEXT,
    token_id INTEGER,
    target_type TEXT NOT NULL,
    target TEXT,
    details TEXT NOT NULL DEFAULT '{}',
    ip TEXT,
    user_agent TEXT
  );
  CREATE INDEX IF NOT EXISTS audit_log_by_namespace ON audit_log (namespace, id);
  CREATE INDEX IF NOT EXISTS audit_log_by_created ON audit_log (created_at);
`;

export const AUDIT_MIGRATION = {
  sqlite: COMMON("INTEGER PRIMARY KEY AUTOINCREMENT"),
  postgres: COMMON("BIGSERIAL PRIMARY KEY"),
} as const;
