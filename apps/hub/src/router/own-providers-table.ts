import type { Queryable } from "../store/database.js";

/** One own provider as stored: its key only sealed (own-provider-secrets.ts) or named by variable. */
export interface OwnProviderRow {
  name: string;
  baseUrl: string;
  apiKeySealed: string | null;
  /** The key's masked form (own-provider-secrets.ts maskedKey), kept so listings never open the key. */
  apiKeyHint: string | null;
  apiKeyEnv: string | null;
  healthPath: string;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  hostedFailover: boolean;
  createdAt: string;
  updatedAt: string;
}

/** What an own provider serves: a hub model under the server's own model name, for chat or embeddings. */
export interface OwnModelRow {
  provider: string;
  modelId: string;
  kind: OwnModelKind;
  servedName: string;
}

/** `chat`: `/v1/chat/completions` and `/v1/completions`; `embeddings`: `/v1/embeddings`. */
export type OwnModelKind = "chat" | "embeddings";

interface ProviderRecord {
  name: string;
  base_url: string;
  api_key_sealed: string | null;
  api_key_hint: string | null;
  api_key_env: string | null;
  health_path: string;
  headers_timeout_ms: number | string;
  idle_timeout_ms: number | string;
  hosted_failover: number | boolean;
  created_at: string;
  updated_at: string;
}

function providerOf(record: ProviderRecord): OwnProviderRow {
  return {
    name: record.name,
    baseUrl: record.base_url,
    apiKeySealed: record.api_key_sealed,
    apiKeyHint: record.api_key_hint,
    apiKeyEnv: record.api_key_env,
    healthPath: record.health_path,
    headersTimeoutMs: Number(record.headers_timeout_ms),
    idleTimeoutMs: Number(record.idle_timeout_ms),
    hostedFailover: Boolean(record.hosted_failover),
    createdAt: record.created_at,
    updatedAt: record.updated_at,
  };
}

/** The own providers and their models (migration 27). */
export function createOwnProvidersTable(db: Queryable) {
  return {
    async list(): Promise<OwnProviderRow[]> {
      const rows = await db.all<ProviderRecord>("SELECT * FROM own_providers ORDER BY created_at, name");
      return rows.map(providerOf);
    },

    async get(name: string): Promise<OwnProviderRow | undefined> {
      const row = await db.get<ProviderRecord>("SELECT * FROM own_providers WHERE name = ?", [name]);
      return row && providerOf(row);
    },

    /** Creates or replaces a provider (its models stay). */
    async put(row: OwnProviderRow): Promise<void> {
      await db.run(
        `INSERT INTO own_providers (name, base_url, api_key_sealed, api_key_hint, api_key_env, health_path,
           headers_timeout_ms, idle_timeout_ms, hosted_failover, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET base_url = excluded.base_url, api_key_sealed = excluded.api_key_sealed,
           api_key_hint = excluded.api_key_hint, api_key_env = excluded.api_key_env,
           health_path = excluded.health_path, headers_timeout_ms = excluded.headers_timeout_ms,
           idle_timeout_ms = excluded.idle_timeout_ms, hosted_failover = excluded.hosted_failover,
           updated_at = excluded.updated_at`,
        [
          row.name,
          row.baseUrl,
          row.apiKeySealed,
          row.apiKeyHint,
          row.apiKeyEnv,
          row.healthPath,
          row.headersTimeoutMs,
          row.idleTimeoutMs,
          row.hostedFailover ? 1 : 0,
          row.createdAt,
          row.updatedAt,
        ],
      );
    },

    /** Removes a provider and its models; false when there was none. */
    async delete(name: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.run("DELETE FROM own_provider_models WHERE provider = ?", [name]);
        return (await tx.run("DELETE FROM own_providers WHERE name = ?", [name])) > 0;
      });
    },

    async models(): Promise<OwnModelRow[]> {
      return db.all<OwnModelRow>(
        `SELECT provider, model_id AS "modelId", kind, served_name AS "servedName"
         FROM own_provider_models ORDER BY provider, model_id, kind`,
      );
    },

    async putModel(row: OwnModelRow): Promise<void> {
      await db.run(
        `INSERT INTO own_provider_models (provider, model_id, kind, served_name) VALUES (?, ?, ?, ?)
         ON CONFLICT (provider, model_id, kind) DO UPDATE SET served_name = excluded.served_name`,
        [row.provider, row.modelId, row.kind, row.servedName],
      );
    },

    async deleteModel(provider: string, modelId: string, kind: OwnModelKind): Promise<boolean> {
      const removed = await db.run(
        "DELETE FROM own_provider_models WHERE provider = ? AND model_id = ? AND kind = ?",
        [provider, modelId, kind],
      );
      return removed > 0;
    },
  };
}

export type OwnProvidersTable = ReturnType<typeof createOwnProvidersTable>;
