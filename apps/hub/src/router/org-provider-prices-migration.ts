/**
 * Migration 50: prices of organizations' own providers. Its own file so that its domain owns its schema;
 * store/migrations.ts lists it in order. Tables and indexes are created IF NOT EXISTS: the upgrade tests replay
 * migrations over a database that already holds them.
 *
 * `org_own_provider_prices`: per organization's provider and hub model it serves, the prices (USD per million
 * tokens, input and output) and context length its admin set, which `/v1/models` tells the organization's
 * members and `:cheapest` orders by, as `router_offers` (migration 32) does for the site's providers. Kept
 * apart from `router_offers`: that table is the site operator's, keyed by a provider name an organization's
 * admin must never write. Removed with the provider (and so with the organization).
 */
const COMMON = (id: string) => `
  CREATE TABLE IF NOT EXISTS org_own_provider_prices (
    org_id ${id} NOT NULL,
    provider TEXT NOT NULL,
    model_id TEXT NOT NULL,
    input_price DOUBLE PRECISION,
    output_price DOUBLE PRECISION,
    context_length INTEGER,
    updated_by TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (org_id, provider, model_id),
    FOREIGN KEY (org_id, provider) REFERENCES org_own_providers (org_id, name) ON DELETE CASCADE
  );
`;

export const ORG_PROVIDER_PRICES_MIGRATION = {
  sqlite: COMMON("INTEGER"),
  postgres: COMMON("BIGINT"),
} as const;
