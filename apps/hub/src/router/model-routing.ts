import { getProviderConfig, type InferenceProvider } from "@modelhub/inference";
import type { MappingTask, ProviderMappings } from "../catalogue/mapping-record.js";
import type { StoredModel } from "../catalogue/model-records.js";

/**
 * What the router reads of the catalogue: models and their provider mappings. The catalogue service
 * (catalogue/catalogue-service.ts) provides it; the router never reaches the catalogue's tables.
 */
export interface CatalogueReads {
  find(id: string): Promise<StoredModel | undefined>;
  mappings(modelId: string): Promise<ProviderMappings>;
  /** Hub model ids mapped to `provider` under its model id `providerId`. */
  modelsServedAs(provider: string, providerId: string): Promise<string[]>;
  /** Every model with a mapping for `task`, with its mappings. */
  mappingsForTask(task: MappingTask): Promise<Map<string, ProviderMappings>>;
}

/** What the OpenAI-compatible router needs of a model per call: who may see it, and its provider mappings. */
export interface ModelRoute {
  model: Pick<StoredModel, "id" | "private" | "gated" | "author">;
  mappings: ProviderMappings;
}

/** How long a model's route is reused: an admin's change to a mapping or a model's visibility shows this late. */
export const MODEL_ROUTE_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

/**
 * A short-lived cache of model id -> (model, mappings) for the router's hot path. Reading a model record
 * parses its whole stored JSON (card data, config, siblings) and the mappings are a second query: together
 * they were the largest per-call cost of `/v1/chat/completions` after the socket writes. Missing models are
 * remembered too, so that a caller repeating an unknown id costs one lookup per TTL.
 */
export function createModelRoutes(
  catalogue: CatalogueReads,
  ttlMs = MODEL_ROUTE_TTL_MS,
  now = () => performance.now(),
) {
  const entries = new Map<string, { route: ModelRoute | undefined; expires: number }>();
  return async function modelRoute(modelId: string): Promise<ModelRoute | undefined> {
    const at = now();
    const cached = entries.get(modelId);
    if (cached && cached.expires > at) return cached.route;
    return readRoute(modelId, at);
  };

  async function readRoute(modelId: string, at: number): Promise<ModelRoute | undefined> {
    const found = await catalogue.find(modelId);
    const route: ModelRoute | undefined = found
      ? {
          model: { id: found.id, private: found.private, gated: found.gated, author: found.author },
          mappings: await catalogue.mappings(found.id),
        }
      : undefined;
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(modelId, { route, expires: at + ttlMs });
    return route;
  }
}

/**
 * The same short-lived cache for `/router/{provider}` calls: the hub models a provider's model id stands for
 * (the id itself, and every model mapped to the provider under that id), as records a visibility check
 * needs. Two or more SQLite reads per call without it (`modelsServedAs`, then each model), read at most once
 * a second per (provider, id) with it: a model made private shows here as late as in `modelRoute`.
 */
export function createServedModels(
  catalogue: CatalogueReads,
  ttlMs = MODEL_ROUTE_TTL_MS,
  now = () => performance.now(),
) {
  const entries = new Map<string, { models: ModelRoute["model"][]; expires: number }>();
  return async function servedModels(provider: string, model: string): Promise<ModelRoute["model"][]> {
    const key = `${provider}\u0000${model}`;
    const at = now();
    const cached = entries.get(key);
    if (cached && cached.expires > at) return cached.models;
    const ids = new Set(await catalogue.modelsServedAs(provider, model));
    ids.add(model);
    const models: ModelRoute["model"][] = [];
    for (const id of ids) {
      const found = await catalogue.find(id);
      if (found)
        models.push({ id: found.id, private: found.private, gated: found.gated, author: found.author });
    }
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, { models, expires: at + ttlMs });
    return models;
  };
}

/**
 * The same for a model version named alone (Replicate's `version` in a `/v1/predictions` body): the hub
 * models mapped to the provider under `owner/name:{version}`. Mappings are read per task the provider
 * serves, at most once a second per (provider, version).
 */
export function createServedVersions(
  catalogue: CatalogueReads,
  ttlMs = MODEL_ROUTE_TTL_MS,
  now = () => performance.now(),
) {
  const entries = new Map<string, { models: ModelRoute["model"][]; expires: number }>();
  return async function servedVersions(
    provider: InferenceProvider,
    version: string,
  ): Promise<ModelRoute["model"][]> {
    const key = `${provider}\u0000${version}`;
    const at = now();
    const cached = entries.get(key);
    if (cached && cached.expires > at) return cached.models;
    const models: ModelRoute["model"][] = [];
    for (const task of getProviderConfig(provider).tasks) {
      for (const [modelId, mappings] of await catalogue.mappingsForTask(task as MappingTask)) {
        if (!mappings[provider]?.providerId.endsWith(`:${version}`)) continue;
        const found = await catalogue.find(modelId);
        if (found)
          models.push({ id: found.id, private: found.private, gated: found.gated, author: found.author });
      }
    }
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, { models, expires: at + ttlMs });
    return models;
  };
}
