import type Database from "better-sqlite3";
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

export function createMappingsTable(db: Database.Database) {
  const forModel = db.prepare<[string], MappingRow>(
    "SELECT * FROM provider_mappings WHERE model_id = ? ORDER BY provider",
  );
  const upsert = db.prepare(`
    INSERT INTO provider_mappings (model_id, provider, task, status, provider_id, adapter, adapter_weights_path)
    VALUES (@model_id, @provider, @task, @status, @provider_id, @adapter, @adapter_weights_path)
    ON CONFLICT (model_id, provider) DO UPDATE SET
      task = excluded.task, status = excluded.status, provider_id = excluded.provider_id,
      adapter = excluded.adapter, adapter_weights_path = excluded.adapter_weights_path
  `);
  const remove = db.prepare<[string, string]>(
    "DELETE FROM provider_mappings WHERE model_id = ? AND provider = ?",
  );
  const byTask = db.prepare<[string], MappingRow>(
    "SELECT * FROM provider_mappings WHERE task = ? ORDER BY model_id, provider",
  );
  const servedAs = db.prepare<[string, string], { model_id: string }>(
    "SELECT model_id FROM provider_mappings WHERE provider = ? AND provider_id = ? ORDER BY model_id",
  );
  const providerCounts = db.prepare<[], { provider: string; n: number }>(
    "SELECT provider, count(*) AS n FROM provider_mappings WHERE status = 'live' GROUP BY provider",
  );

  return {
    forModel(modelId: string): ProviderMappings {
      const result: ProviderMappings = {};
      for (const row of forModel.all(modelId)) result[row.provider] = toMapping(row);
      return result;
    },

    /** Mappings of many models in one statement (for listings with `expand[]=inferenceProviderMapping`). */
    forModels(modelIds: readonly string[]): Map<string, ProviderMappings> {
      const result = new Map<string, ProviderMappings>();
      if (modelIds.length === 0) return result;
      const rows = db
        .prepare<string[], MappingRow>(
          `SELECT * FROM provider_mappings WHERE model_id IN (${modelIds.map(() => "?").join(", ")}) ORDER BY provider`,
        )
        .all(...modelIds);
      for (const row of rows) {
        const key = row.model_id.toLowerCase();
        const mappings = result.get(key) ?? {};
        mappings[row.provider] = toMapping(row);
        result.set(key, mappings);
      }
      return result;
    },

    /** Every mapping for one task, by model id (the router's `/v1/models` lists the chat ones). */
    forTask(task: MappingTask): Map<string, ProviderMappings> {
      const result = new Map<string, ProviderMappings>();
      for (const row of byTask.all(task)) {
        const mappings = result.get(row.model_id) ?? {};
        mappings[row.provider] = toMapping(row);
        result.set(row.model_id, mappings);
      }
      return result;
    },

    set(modelId: string, provider: string, mapping: ProviderMapping): void {
      upsert.run({
        model_id: modelId,
        provider,
        task: mapping.task,
        status: mapping.status,
        provider_id: mapping.providerId,
        adapter: mapping.adapter ?? null,
        adapter_weights_path: mapping.adapterWeightsPath ?? null,
      });
    },

    delete(modelId: string, provider: string): boolean {
      return remove.run(modelId, provider).changes > 0;
    },

    /** Hub models that `provider` serves under its own id `providerId` (a mapping read backwards). */
    async modelsServedAs(provider: string, providerId: string): Promise<string[]> {
      return servedAs.all(provider, providerId).map((row) => row.model_id);
    },

    liveCountsByProvider(): Map<string, number> {
      return new Map(providerCounts.all().map((row) => [row.provider, row.n]));
    },
  };
}

export type MappingsTable = ReturnType<typeof createMappingsTable>;
