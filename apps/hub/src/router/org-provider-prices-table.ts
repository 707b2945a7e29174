import type { Queryable } from "../store/database.js";

/** What an organization's admin set for one of its providers' models (migration 50). */
export interface OrgProviderPrice {
  orgId: number;
  /** The provider's name within the organization (the router calls it `org/name`). */
  provider: string;
  modelId: string;
  /** USD per million input tokens; null when not set. */
  inputPrice: number | null;
  /** USD per million output tokens; null when not set. */
  outputPrice: number | null;
  contextLength: number | null;
  updatedBy: string;
  updatedAt: string;
}

interface PriceRecord {
  org_id: number | string;
  provider: string;
  model_id: string;
  input_price: number | string | null;
  output_price: number | string | null;
  context_length: number | string | null;
  updated_by: string;
  updated_at: string;
}

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

function priceOf(row: PriceRecord): OrgProviderPrice {
  return {
    orgId: Number(row.org_id),
    provider: row.provider,
    modelId: row.model_id,
    inputPrice: numberOrNull(row.input_price),
    outputPrice: numberOrNull(row.output_price),
    contextLength: numberOrNull(row.context_length),
    updatedBy: row.updated_by,
    updatedAt: row.updated_at,
  };
}

/** Organizations' providers' prices (org_own_provider_prices, migration 50). */
export function createOrgProviderPricesTable(db: Queryable) {
  return {
    /** Every organization's prices (the router's snapshot). */
    async listAll(): Promise<OrgProviderPrice[]> {
      const rows = await db.all<PriceRecord>(
        "SELECT * FROM org_own_provider_prices ORDER BY org_id, provider, model_id",
      );
      return rows.map(priceOf);
    },

    async list(orgId: number): Promise<OrgProviderPrice[]> {
      const rows = await db.all<PriceRecord>(
        "SELECT * FROM org_own_provider_prices WHERE org_id = ? ORDER BY provider, model_id",
        [orgId],
      );
      return rows.map(priceOf);
    },

    async put(price: OrgProviderPrice): Promise<void> {
      await db.run(
        `INSERT INTO org_own_provider_prices (org_id, provider, model_id, input_price, output_price,
           context_length, updated_by, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_id, provider, model_id) DO UPDATE SET input_price = excluded.input_price,
           output_price = excluded.output_price, context_length = excluded.context_length,
           updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
        [
          price.orgId,
          price.provider,
          price.modelId,
          price.inputPrice,
          price.outputPrice,
          price.contextLength,
          price.updatedBy,
          price.updatedAt,
        ],
      );
    },

    /** False when there was none. */
    async delete(orgId: number, provider: string, modelId: string): Promise<boolean> {
      const removed = await db.run(
        "DELETE FROM org_own_provider_prices WHERE org_id = ? AND provider = ? AND model_id = ?",
        [orgId, provider, modelId],
      );
      return removed > 0;
    },
  };
}

export type OrgProviderPricesTable = ReturnType<typeof createOrgProviderPricesTable>;
