import type { Queryable } from "../store/database.js";
import type { OwnModelKind } from "./own-providers-table.js";

/** An organization's own provider as stored (migration 43): its key only sealed, never named by variable. */
export interface OrgOwnProviderRow {
  orgId: number;
  /** Unique within the organization; the router names it `org/name`. */
  name: string;
  baseUrl: string;
  apiKeySealed: string | null;
  apiKeyHint: string | null;
  healthPath: string;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  hostedFailover: boolean;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface OrgOwnModelRow {
  orgId: number;
  provider: string;
  modelId: string;
  kind: OwnModelKind;
  servedName: string;
}

interface ProviderRecord {
  org_id: number | string;
  name: string;
  base_url: string;
  api_key_sealed: string | null;
  api_key_hint: string | null;
  health_path: string;
  headers_timeout_ms: number | string;
  idle_timeout_ms: number | string;
  hosted_failover: number | boolean;
  created_by: string;
  created_at: string;
  updated_at: string;
}

function providerOf(record: ProviderRecord): OrgOwnProviderRow {
  return {
    orgId: Number(record.org_id),
    name: record.name,
    baseUrl: record.base_url,
    apiKeySealed: record.api_key_sealed,
    apiKeyHint: record.api_key_hint,
    healthPath: record.health_path,
    headersTimeoutMs: Number(record.headers_timeout_ms),
    idleTimeoutMs: Number(record.idle_timeout_ms),
    hostedFailover: Boolean(record.hosted_failover),
    createdBy: record.created_by,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
  };
}

const MODEL_COLUMNS = `org_id AS "orgId", provider, model_id AS "modelId", kind, served_name AS "servedName"`;

/** Organizations' own providers and their models (migration 43). */
export function createOrgOwnProvidersTable(db: Queryable) {
  const modelOf = (row: OrgOwnModelRow): OrgOwnModelRow => ({ ...row, orgId: Number(row.orgId) });
  return {
    /** Every organization's providers, oldest first (the router's order). */
    async listAll(): Promise<OrgOwnProviderRow[]> {
      const rows = await db.all<ProviderRecord>(
        "SELECT * FROM org_own_providers ORDER BY created_at, org_id, name",
      );
      return rows.map(providerOf);
    },

    async list(orgId: number): Promise<OrgOwnProviderRow[]> {
      const rows = await db.all<ProviderRecord>(
        "SELECT * FROM org_own_providers WHERE org_id = ? ORDER BY created_at, name",
        [orgId],
      );
      return rows.map(providerOf);
    },

    async get(orgId: number, name: string): Promise<OrgOwnProviderRow | undefined> {
      const row = await db.get<ProviderRecord>(
        "SELECT * FROM org_own_providers WHERE org_id = ? AND name = ?",
        [orgId, name],
      );
      return row && providerOf(row);
    },

    /** Creates or replaces a provider (its models stay). */
    async put(row: OrgOwnProviderRow): Promise<void> {
      await db.run(
        `INSERT INTO org_own_providers (org_id, name, base_url, api_key_sealed, api_key_hint, health_path,
           headers_timeout_ms, idle_timeout_ms, hosted_failover, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_id, name) DO UPDATE SET base_url = excluded.base_url,
           api_key_sealed = excluded.api_key_sealed, api_key_hint = excluded.api_key_hint,
           health_path = excluded.health_path, headers_timeout_ms = excluded.headers_timeout_ms,
           idle_timeout_ms = excluded.idle_timeout_ms, hosted_failover = excluded.hosted_failover,
           updated_at = excluded.updated_at`,
        [
          row.orgId,
          row.name,
          row.baseUrl,
          row.apiKeySealed,
          row.apiKeyHint,
          row.healthPath,
          row.headersTimeoutMs,
          row.idleTimeoutMs,
          row.hostedFailover ? 1 : 0,
          row.createdBy,
          row.createdAt,
          row.updatedAt,
        ],
      );
    },

    /** Removes a provider and its models; false when there was none. */
    async delete(orgId: number, name: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        await tx.run("DELETE FROM org_own_provider_models WHERE org_id = ? AND provider = ?", [orgId, name]);
        await tx.run("DELETE FROM org_own_provider_prices WHERE org_id = ? AND provider = ?", [orgId, name]);
        return (
          (await tx.run("DELETE FROM org_own_providers WHERE org_id = ? AND name = ?", [orgId, name])) > 0
        );
      });
    },

    async modelsAll(): Promise<OrgOwnModelRow[]> {
      const rows = await db.all<OrgOwnModelRow>(
        `SELECT ${MODEL_COLUMNS} FROM org_own_provider_models ORDER BY org_id, provider, model_id, kind`,
      );
      return rows.map(modelOf);
    },

    async models(orgId: number): Promise<OrgOwnModelRow[]> {
      const rows = await db.all<OrgOwnModelRow>(
        `SELECT ${MODEL_COLUMNS} FROM org_own_provider_models WHERE org_id = ?
         ORDER BY provider, model_id, kind`,
        [orgId],
      );
      return rows.map(modelOf);
    },

    async putModel(row: OrgOwnModelRow): Promise<void> {
      await db.run(
        `INSERT INTO org_own_provider_models (org_id, provider, model_id, kind, served_name) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (org_id, provider, model_id, kind) DO UPDATE SET served_name = excluded.served_name`,
        [row.orgId, row.provider, row.modelId, row.kind, row.servedName],
      );
    },

    async deleteModel(
      orgId: number,
      provider: string,
      modelId: string,
      kind: OwnModelKind,
    ): Promise<boolean> {
      const removed = await db.run(
        "DELETE FROM org_own_provider_models WHERE org_id = ? AND provider = ? AND model_id = ? AND kind = ?",
        [orgId, provider, modelId, kind],
      );
      return removed > 0;
    },
  };
}

export type OrgOwnProvidersTable = ReturnType<typeof createOrgOwnProvidersTable>;
