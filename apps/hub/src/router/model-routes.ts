import type { ProviderMappings } from "../store/mapping-record.js";
import type { StoredModel } from "../store/models-table.js";
import type { Store } from "../store/store.js";

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
export function createModelRoutes(store: Store, ttlMs = MODEL_ROUTE_TTL_MS, now = () => performance.now()) {
  const entries = new Map<string, { route: ModelRoute | undefined; expires: number }>();
  return async function modelRoute(modelId: string): Promise<ModelRoute | undefined> {
    const at = now();
    const cached = entries.get(modelId);
    if (cached && cached.expires > at) return cached.route;
    // `await` on each read: the store's methods are becoming asynchronous (PostgreSQL).
    const found = await store.models.get(modelId);
    const route: ModelRoute | undefined = found
      ? {
          model: { id: found.id, private: found.private, gated: found.gated, author: found.author },
          mappings: await store.mappings.forModel(found.id),
        }
      : undefined;
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(modelId, { route, expires: at + ttlMs });
    return route;
  };
}
