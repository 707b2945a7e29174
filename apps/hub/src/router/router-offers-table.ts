import type { Queryable } from "../store/database.js";

/** A provider's offer for a hub model, as an administrator configured it (migration 32). */
export interface RouterOffer {
  provider: string;
  modelId: string;
  /** USD per million input tokens; null when not configured. */
  inputPrice: number | null;
  /** USD per million output tokens; null when not configured. */
  outputPrice: number | null;
  contextLength: number | null;
  updatedAt: string;
}

interface OfferRecord {
  provider: string;
  model_id: string;
  input_price: number | string | null;
  output_price: number | string | null;
  context_length: number | string | null;
  updated_at: string;
}

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

/** The configured offers (router_offers). */
export function createRouterOffersTable(db: Queryable) {
  return {
    async list(): Promise<RouterOffer[]> {
      const rows = await db.all<OfferRecord>("SELECT * FROM router_offers ORDER BY provider, model_id");
      return rows.map((row) => ({
        provider: row.provider,
        modelId: row.model_id,
        inputPrice: numberOrNull(row.input_price),
        outputPrice: numberOrNull(row.output_price),
        contextLength: numberOrNull(row.context_length),
        updatedAt: row.updated_at,
      }));
    },

    async put(offer: RouterOffer): Promise<void> {
      await db.run(
        `INSERT INTO router_offers (provider, model_id, input_price, output_price, context_length, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (provider, model_id) DO UPDATE SET input_price = excluded.input_price,
           output_price = excluded.output_price, context_length = excluded.context_length,
           updated_at = excluded.updated_at`,
        [
          offer.provider,
          offer.modelId,
          offer.inputPrice,
          offer.outputPrice,
          offer.contextLength,
          offer.updatedAt,
        ],
      );
    },

    async delete(provider: string, modelId: string): Promise<boolean> {
      return (
        (await db.run("DELETE FROM router_offers WHERE provider = ? AND model_id = ?", [provider, modelId])) >
        0
      );
    },
  };
}
