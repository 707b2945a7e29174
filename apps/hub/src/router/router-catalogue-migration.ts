/**
 * Migration 32: what the router tells of each provider's offer for a model (router-offers-table.ts). Its own
 * file so that its domain owns its schema; store/migrations.ts lists it in order. Tables and indexes are
 * created IF NOT EXISTS: the upgrade tests replay migrations over a database that already holds them.
 *
 * `router_offers`: per provider (hosted or own) and hub model, the prices (USD per million tokens, input and
 * output) and context length an administrator configured, as `/v1/models` reports them and `:cheapest`
 * orders by. Latency and throughput are not stored: each replica measures its own calls.
 */
export const ROUTER_CATALOGUE_MIGRATION = `
  CREATE TABLE IF NOT EXISTS router_offers (
    provider TEXT NOT NULL,
    model_id TEXT NOT NULL,
    input_price DOUBLE PRECISION,
    output_price DOUBLE PRECISION,
    context_length INTEGER,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (provider, model_id)
  );
`;
