/**
 * Migration 43: own providers owned by organizations, visible to their members only (37 was released empty).
 * Its own file so that its domain owns its schema; store/migrations.ts lists it in order. Tables and indexes
 * are created IF NOT EXISTS: the upgrade tests replay migrations over a database that already holds them.
 *
 * - `org_own_providers`: an organization's OpenAI-compatible server, named within the organization (the
 *   router calls it `org/name`: docs/decisions/org-own-providers.md). The key only sealed
 *   (own-provider-secrets.ts, bound to the organization's id and the name), never named by variable: an
 *   organization's admin must not send the hub's environment to a server of theirs. Removed with the
 *   organization.
 * - `org_own_provider_models`: what each serves, as `own_provider_models` (migration 27) does.
 */
const COMMON = (id: string) => `
  CREATE TABLE IF NOT EXISTS org_own_providers (
    org_id ${id} NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    base_url TEXT NOT NULL,
    api_key_sealed TEXT,
    api_key_hint TEXT,
    health_path TEXT NOT NULL,
    headers_timeout_ms INTEGER NOT NULL,
    idle_timeout_ms INTEGER NOT NULL,
    hosted_failover INTEGER NOT NULL DEFAULT 1,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (org_id, name)
  );
  CREATE TABLE IF NOT EXISTS org_own_provider_models (
    org_id ${id} NOT NULL,
    provider TEXT NOT NULL,
    model_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('chat', 'embeddings')),
    served_name TEXT NOT NULL,
    PRIMARY KEY (org_id, provider, model_id, kind),
    FOREIGN KEY (org_id, provider) REFERENCES org_own_providers (org_id, name) ON DELETE CASCADE
  );
  CREATE INDEX IF NOT EXISTS org_own_provider_models_by_model ON org_own_provider_models (model_id, kind);
`;

export const ORG_OWN_PROVIDERS_MIGRATION = {
  sqlite: COMMON("INTEGER"),
  postgres: COMMON("BIGINT"),
} as const;
