import type { Queryable } from "../store/database.js";

/** A model repository's GGUF file the built-in llama.cpp provider runs, under one quantization's name. */
export interface LocalModelRow {
  modelId: string;
  /** As the GGUF file names it (`Q4_K_M`, `F16`...), upper case. */
  quantization: string;
  filePath: string;
  enabledBy: string;
  createdAt: string;
}

/** The local provider's enabled models (migration 38). */
export function createLocalProviderTable(db: Queryable) {
  return {
    list(): Promise<LocalModelRow[]> {
      return db.all<LocalModelRow>(
        `SELECT model_id AS "modelId", quantization, file_path AS "filePath", enabled_by AS "enabledBy",
           created_at AS "createdAt"
         FROM local_provider_models ORDER BY model_id, quantization`,
      );
    },

    async put(row: LocalModelRow): Promise<void> {
      await db.run(
        `INSERT INTO local_provider_models (model_id, quantization, file_path, enabled_by, created_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (model_id, quantization) DO UPDATE SET file_path = excluded.file_path,
           enabled_by = excluded.enabled_by`,
        [row.modelId, row.quantization, row.filePath, row.enabledBy, row.createdAt],
      );
    },

    /** False when it was not enabled. */
    async delete(modelId: string, quantization: string): Promise<boolean> {
      return (
        (await db.run("DELETE FROM local_provider_models WHERE model_id = ? AND quantization = ?", [
          modelId,
          quantization,
        ])) > 0
      );
    },
  };
}
