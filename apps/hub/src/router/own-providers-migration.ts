/**
 * Migration 27: own inference providers (OpenAI-compatible servers an administrator adds: own-providers-*.ts).
 * Its own file so that its domain owns its schema; store/migrations.ts lists it in order. Tables and indexes
 * are created IF NOT EXISTS: the upgrade tests replay migrations over a database that already holds them.
 *
 * `api_key_sealed` holds the key encrypted (own-provider-secrets.ts), never the key itself; `api_key_env`
 * names an environment variable to read it from instead. Health is not stored: each replica checks the
 * servers it calls.
 */
export const OWN_PROVIDERS_MIGRATION = `
  CREATE TABLE IF NOT EXISTS own_providers (
    name TEXT PRIMARY KEY,
    base_url TEXT NOT NULL,
    api_key_sealed TEXT,
    api_key_hint TEXT,
    api_key_env TEXT,
    health_path TEXT NOT NULL,
    headers_timeout_ms INTEGER NOT NULL,
    idle_timeout_ms INTEGER NOT NULL,
    hosted_failover INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS own_provider_models (
    provider TEXT NOT NULL REFERENCES own_providers (name) ON DELETE CASCADE,
    model_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('chat', 'embeddings')),
    served_name TEXT NOT NULL,
    PRIMARY KEY (provider, model_id, kind)
  );
  CREATE INDEX IF NOT EXISTS own_provider_models_by_model ON own_provider_models (model_id, kind);
`;
