import type { AuditRecorder } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import { type Action, type Authorizer, repoNotFound } from "../auth/authorize.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.js";
import { isServedMapping } from "../router/served.js";
import type { Store, StoreTransaction } from "../store/store.js";
import { readImportFile, writeCatalogue } from "./catalogue.js";
import type { DemoCopy } from "./demo-copies-table.js";
import {
  inPreferredOrder,
  type MappingTask,
  type ProviderMapping,
  type ProviderMappings,
  parseProviderMapping,
  parseProviderName,
} from "./mapping-record.js";
import type { ModelFilters, VisibleModels } from "./model-filters.js";
import { parseModelId } from "./model-id.js";
import { modelResource } from "./model-lookup.js";
import { parseModelRecord } from "./model-record.js";
import type { ModelListQuery, StoredModel } from "./models-table.js";

export interface CatalogueServiceOptions {
  /** Provider names mappings may use; undefined: any well-formed name (the CLI's import of old data). */
  knownProviders?: readonly string[];
  /** A signed-in user's order of providers (router/provider-settings-service.ts); none: the hub's order. */
  providerOrder?: (userId: number) => Promise<readonly string[]>;
  /** Writes an audit entry for each change, in its transaction (the admin API and CLI); none: unaudited. */
  audit?: AuditRecorder;
}

/**
 * The models catalogue: models and their provider mappings, read as a caller may see them (authorize() on
 * each model, `visibility()` filters on listings and counts) and written by site admins (the admin API and
 * CLI, which validate alike). Routes and the admin operations reach the catalogue's tables only through it.
 */
export function catalogueService(
  store: Pick<Store, "models" | "mappings" | "demoCopies" | "transaction">,
  options: CatalogueServiceOptions = {},
) {
  const { knownProviders } = options;
  const audit = options.audit;
  // A change to the catalogue and its entry, in one transaction.
  const change = <T>(work: (tx: StoreTransaction, record: AuditRecorder["record"]) => Promise<T>) =>
    store.transaction((tx) => work(tx, (into, entry) => audit?.record(into, entry) ?? Promise.resolve()));
  return {
    /**
     * Model `id` if `actor` may `action` it; a missing model and a hidden one are refused alike
     * (RepoNotFound, as the public hub answers).
     */
    async model(actor: Actor, authorizer: Authorizer, id: string, action: Action = "read") {
      const model = await store.models.get(id);
      if (!model) throw repoNotFound(actor, id);
      await authorizer.authorize(actor, action, modelResource(model));
      return model;
    },

    /** Whether a model page exists for the web app (the caller's visibility is applied by the caller). */
    find: (id: string): Promise<StoredModel | undefined> => store.models.get(id),

    list: (query: ModelListQuery) => store.models.list(query),
    countMatching: (filters: ModelFilters) => store.models.countMatching(filters),
    countChildren: (id: string, visible: VisibleModels) => store.models.countChildren(id, visible),
    countsByLibrary: (visible: VisibleModels) => store.models.countsByLibrary(visible),
    countsByPipeline: (visible: VisibleModels) => store.models.countsByPipeline(visible),
    /** The widget's ranking. */
    top: (query: Parameters<Store["models"]["top"]>[0]) => store.models.top(query),

    mappings: (modelId: string): Promise<ProviderMappings> => store.mappings.forModel(modelId),
    mappingsOfModels: (modelIds: string[]) => store.mappings.forModels(modelIds),
    /** Hub model ids mapped to `provider` under its model id `providerId` (the router's per-provider calls). */
    modelsServedAs: (provider: string, providerId: string) =>
      store.mappings.modelsServedAs(provider, providerId),
    /** Every model with a mapping for `task`, with its mappings. */
    mappingsForTask: (task: MappingTask) => store.mappings.forTask(task),

    /**
     * A model's provider mappings as `actor` should see them: a signed-in user's preferred providers first
     * (Settings > Inference Providers), since clients choosing `provider="auto"` take the first live one.
     */
    async mappingsFor(actor: Actor | undefined, modelId: string): Promise<ProviderMappings> {
      const preferred =
        actor?.kind === "user" && options.providerOrder ? await options.providerOrder(actor.user.id) : [];
      return inPreferredOrder(await store.mappings.forModel(modelId), preferred);
    },

    /**
     * Records that repository `repoKey` is the demo copy of a catalogue model made by `seededCommit`
     * (repos/seed-repositories.ts): its pages then give the original's dates or none, and its source's figures
     * labelled, until a commit on this hub makes it the hub's own.
     */
    recordDemoCopy: (copy: Parameters<Store["demoCopies"]["record"]>[0]) => store.demoCopies.record(copy),
    /** The untouched demo copy repository `repoKey` is, if it is one. */
    demoCopy: (repoKey: number): Promise<DemoCopy | undefined> => store.demoCopies.untouched(repoKey),
    /** The untouched demo copies among a listing's models, keyed by lower-cased id. */
    demoCopiesOf: (modelIds: readonly string[]) => store.demoCopies.untouchedOfModels(modelIds),

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
      // Whether it existed is read under the model's lock in the write's transaction: two simultaneous
      // creations of one id are one creation and one refusal (or update), and logged so.
      return change(async (tx, record_) => {
        await tx.lock(`catalogue-model:${record.id.toLowerCase()}`);
        const existed = (await tx.models.get(record.id)) !== undefined;
        if (existed && mode === "create") throw new ConflictError(`Model ${record.id} already exists.`);
        const model = await tx.models.upsert(record);
        await record_(tx, {
          action: existed ? "model.update" : "model.create",
          namespace: null,
          targetType: "model",
          target: model.id,
        });
        return { model, created: !existed };
      });
    },

    async deleteModel(id: string): Promise<void> {
      const modelId = parseModelId(id);
      await change(async (tx, record) => {
        if (!(await tx.models.delete(modelId))) throw new NotFoundError(`Model ${id} not found.`);
        await record(tx, { action: "model.delete", namespace: null, targetType: "model", target: modelId });
      });
    },

    async setMapping(modelId: string, provider: string, input: unknown): Promise<ProviderMapping> {
      const name = parseProviderName(provider, knownProviders);
      const mapping = parseProviderMapping(input);
      if (knownProviders && !isServedMapping(name, mapping.task)) {
        throw new InvalidInputError(`Provider ${name} does not serve ${mapping.task} on this hub.`);
      }
      const id = parseModelId(modelId);
      await change(async (tx, record) => {
        const model = await tx.models.get(id);
        if (!model) throw new NotFoundError(`Model ${modelId} not found.`);
        await tx.mappings.set(model.id, name, mapping);
        await record(tx, {
          action: "model.mapping-set",
          namespace: null,
          targetType: "model",
          target: model.id,
          details: { provider: name, ...mapping },
        });
      });
      return mapping;
    },

    /** Imports a catalogue file (models and mappings: catalogue.ts) in one transaction, one entry for it. */
    async importFile(path: string): Promise<{ models: number; mappings: number }> {
      const catalogue = readImportFile(path, knownProviders);
      return change(async (tx, record) => {
        const written = await writeCatalogue(tx, catalogue);
        // The counts, not the ids: a catalogue may hold many thousand models.
        await record(tx, {
          action: "catalogue.import",
          namespace: null,
          targetType: "model",
          target: null,
          details: written,
        });
        return written;
      });
    },

    async deleteMapping(modelId: string, provider: string): Promise<void> {
      const id = parseModelId(modelId);
      const name = parseProviderName(provider, undefined);
      await change(async (tx, record) => {
        const model = await tx.models.get(id);
        if (!model || !(await tx.mappings.delete(model.id, name))) {
          throw new NotFoundError(`No ${provider} mapping for model ${modelId}.`);
        }
        await record(tx, {
          action: "model.mapping-delete",
          namespace: null,
          targetType: "model",
          target: model.id,
          details: { provider: name },
        });
      });
    },
  };
}

export type CatalogueService = ReturnType<typeof catalogueService>;
