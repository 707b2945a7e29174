import {
  type ProviderMapping,
  parseProviderMapping,
  parseProviderName,
} from "../catalogue/mapping-record.js";
import { parseModelId } from "../catalogue/model-id.js";
import { parseModelRecord } from "../catalogue/model-record.js";
import type { StoredModel } from "../catalogue/models-table.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.js";
import { isServedMapping } from "../router/served.js";
import type { Store } from "../store/store.js";

/**
 * The admin tasks, shared by the admin API and the admin CLI so both validate exactly alike. Each one
 * validates everything before it writes anything.
 */
export function adminOperations(store: Store, knownProviders: readonly string[] | undefined) {
  return {
    /** `mode: "create"` refuses an existing id; `"upsert"` creates or replaces. */
    async putModel(
      input: unknown,
      mode: "create" | "upsert",
      expectedId?: string,
    ): Promise<{ model: StoredModel; created: boolean }> {
      const record = parseModelRecord(input);
      if (expectedId !== undefined && record.id.toLowerCase() !== expectedId.toLowerCase()) {
        throw new InvalidInputError(
          `The record's id "${record.id}" does not match the URL's "${expectedId}".`,
        );
      }
      const existed = (await store.models.get(record.id)) !== undefined;
      if (existed && mode === "create") throw new ConflictError(`Model ${record.id} already exists.`);
      return { model: await store.models.upsert(record), created: !existed };
    },

    async deleteModel(id: string): Promise<void> {
      if (!(await store.models.delete(parseModelId(id)))) throw new NotFoundError(`Model ${id} not found.`);
    },

    async setMapping(modelId: string, provider: string, input: unknown): Promise<ProviderMapping> {
      const name = parseProviderName(provider, knownProviders);
      const mapping = parseProviderMapping(input);
      if (knownProviders && !isServedMapping(name, mapping.task)) {
        throw new InvalidInputError(`Provider ${name} does not serve ${mapping.task} on this hub.`);
      }
      const model = await store.models.get(parseModelId(modelId));
      if (!model) throw new NotFoundError(`Model ${modelId} not found.`);
      await store.mappings.set(model.id, name, mapping);
      return mapping;
    },

    async deleteMapping(modelId: string, provider: string): Promise<void> {
      const model = await store.models.get(parseModelId(modelId));
      if (!model || !(await store.mappings.delete(model.id, parseProviderName(provider, undefined)))) {
        throw new NotFoundError(`No ${provider} mapping for model ${modelId}.`);
      }
    },
  };
}

export type AdminOperations = ReturnType<typeof adminOperations>;
