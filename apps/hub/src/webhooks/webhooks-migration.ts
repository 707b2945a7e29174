/**
 * Migration 26: webhooks and their deliveries. Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests replay
 * migrations over a database that already holds them.
 *
 * - `webhooks`: one per user's webhook (the public hub's /api/settings/webhooks), its watched items also in
 *   `webhook_watches` (lower-cased) so that an event finds its webhooks by index, not by reading them all.
 * - `webhook_events`: what happened, queued in the transaction that made it happen; a worker fans each out
 *   to the webhooks that match and deletes it, in one transaction (so exactly one replica does it).
 * - `webhook_deliveries`: one payload to one webhook, claimed with a lease (as scan_queue is), retried with
 *   back-off, kept as the webhook's delivery log.
 */
const COMMON = (id: string, bigint: string) => `
  CREATE TABLE IF NOT EXISTS webhooks (
    id TEXT PRIMARY KEY,
    owner_id ${bigint} NOT NULL,
    url TEXT NOT NULL,
    secret TEXT,
    domains TEXT NOT NULL,
    watched TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    disabled_reason TEXT,
    consecutive_failures INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS webhooks_by_owner ON webhooks (owner_id);
  CREATE TABLE IF NOT EXISTS webhook_watches (
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (webhook_id, kind, name)
  );
  CREATE INDEX IF NOT EXISTS webhook_watches_by_item ON webhook_watches (kind, name);
  CREATE TABLE IF NOT EXISTS webhook_events (
    id ${id},
    repo_type TEXT NOT NULL,
    repo_id TEXT NOT NULL,
    repo_owner TEXT NOT NULL,
    repo_private INTEGER NOT NULL,
    scope TEXT NOT NULL,
    event TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id ${id},
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    payload TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    claimed_by TEXT,
    lease_until TEXT,
    response_status INTEGER,
    last_error TEXT,
    replay_of ${bigint},
    created_at TEXT NOT NULL,
    finished_at TEXT
  );
  CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
  CREATE INDEX IF NOT EXISTS webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);
`;

export const WEBHOOKS_MIGRATION = {
  sqlite: COMMON("INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER"),
  postgres: COMMON("BIGSERIAL PRIMARY KEY", "BIGINT"),
} as const;
