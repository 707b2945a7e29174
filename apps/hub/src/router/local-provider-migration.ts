/**
 * Migration 38: the built-in llama.cpp provider's enabled repositories and quantizations
 * (local-provider-*.ts). Its own file so that its domain owns its schema; store/migrations.ts lists it in order.
 * Tables and indexes are created IF NOT EXISTS: the upgrade tests replay migrations over a database that
 * already holds them.
 *
 * One row per (model, quantization): the GGUF file of the model repository that the provider runs for it,
 * named by path (the file at the default branch when it is first loaded).
 */
export const LOCAL_PROVIDER_MIGRATION = `
  CREATE TABLE IF NOT EXISTS local_provider_models (
    model_id TEXT NOT NULL,
    quantization TEXT NOT NULL,
    file_path TEXT NOT NULL,
    enabled_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (model_id, quantization)
  );
`;
