import { placeholders, type Queryable } from "../store/database.js";
import type {
  MappingAdapter,
  MappingStatus,
  MappingTask,
  ProviderMapping,
  ProviderMappings,
} from "./mapping-record.js";

interface MappingRow {
  model_id: string;
  provider: string;
  task: string;
  status: string;
  provider_id: string;
  adapter: string | null;
  adapter_weights_path: string | null;
}

function toMapping(row: MappingRow): ProviderMapping {
  const mapping: ProviderMapping = {
    status: row.status as MappingStatus,
    providerId: row.provider_id,
    task: row.task as MappingTask,
  };
  if (row.adapter && row.adapter_weights_path) {
    mapping.adapter = row.adapter as MappingAdapter;
    mapping.adapterWeightsPath = row.adapter_weights_path;
  }
  return mapping;
}

export function createMappingsTable(q: Queryable) {
  return {
    async forModel(modelId: string): Promise<ProviderMappings> {
      const result: ProviderMappings = {};
      const rows = await q.all<MappingRow>(
        "SELECT * FROM provider_mappings WHERE model_id = ? ORDER BY provider",
        [modelId],
      );
      for (const row of rows) result[row.provider] = toMapping(row);
      return result;
    },

    /** Mappings of many models in one statement (for listings with `expand[]=inferenceProviderMapping`). */
    async forModels(modelIds: readonly string[]): Promise<Map<string, ProviderMappings>> {
      const result = new Map<string, ProviderMappings>();
      if (modelIds.length === 0) return result;
      const rows = await q.all<MappingRow>(
        `SELECT * FROM provider_mappings WHERE model_id IN (${placeholders(modelIds)}) ORDER BY provider`,
        modelIds,
      );
      for (const row of rows) {
        const key = row.model_id.toLowerCase();
        const mappings = result.get(key) ?? {};
        mappings[row.provider] = toMapping(row);
        result.set(key, mappings);
      }
      return result;
    },

    /** Every mapping for one task, by model id (the router's `/v1/models` lists the chat ones). */
    async forTask(task: MappingTask): Promise<Map<string, ProviderMappings>> {
      const result = new Map<string, ProviderMappings>();
      const rows = await q.all<MappingRow>(
        "SELECT * FROM provider_mappings WHERE task = ? ORDER BY model_id, provider",
        [task],
      );
      for (const row of rows) {
        const mappings = result.get(row.model_id) ?? {};
        mappings[row.provider] = toMapping(row);
        result.set(row.model_id, mappings);
      }
      return result;
    },

    async set(modelId: string, provider: string, mapping: ProviderMapping): Promise<void> {
      await q.run(
        `INSERT INTO provider_mappings (model_id, provider, task, status, provider_id, adapter, adapter_weights_path)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (model_id, provider) DO UPDATE SET
           task = excluded.task, status = excluded.status, provider_id = excluded.provider_id,
           adapter = excluded.adapter, adapter_weights_path = excluded.adapter_weights_path`,
        [
          modelId,
          provider,
          mapping.task,
          mapping.status,
          mapping.providerId,
          mapping.adapter ?? null,
          mapping.adapterWeightsPath ?? null,
        ],
      );
    },

    async delete(modelId: string, provider: string): Promise<boolean> {
      return (
        (await q.run("DELETE FROM provider_mappings WHERE model_id = ? AND provider = ?", [
          modelId,
          provider,
        ])) > 0
      );
    },

    /** Hub models that `provider` serves under its own id `providerId` (a mapping read backwards). */
    async modelsServedAs(provider: string, providerId: string): Promise<string[]> {
      const rows = await q.all<{ model_id: string }>(
        "SELECT model_id FROM provider_mappings WHERE provider = ? AND provider_id = ? ORDER BY model_id",
        [provider, providerId],
      );
      return rows.map((row) => row.model_id);
    },

    async liveCountsByProvider(): Promise<Map<string, number>> {
      const rows = await q.all<{ provider: string; n: number }>(
        "SELECT provider, count(*) AS n FROM provider_mappings WHERE status = 'live' GROUP BY provider",
      );
      return new Map(rows.map((row) => [row.provider, row.n]));
    },
  };
}

export type MappingsTable = ReturnType<typeof createMappingsTable>;
