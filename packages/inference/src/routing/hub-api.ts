import { ProviderApiError, RoutingError } from "../errors.js";
import type { CallContext } from "../http/call-context.js";
import { sendRequest } from "../http/request.js";
import type { InferenceTask } from "../types.js";
import { isObject, isString } from "../validate.js";
import { TtlCache } from "./mapping-cache.js";

export interface ProviderMapping {
  provider: string;
  /** The provider's own model id. */
  providerId: string;
  status: string;
  task: string;
  /** `"lora"` when the model is an adapter the provider applies to a base model. */
  adapter?: string;
  /** The adapter's weights file in the model's repository. */
  adapterWeightsPath?: string;
}

export interface HubAccess {
  hubUrl: string;
  /** Sent only when it is a hub token: a provider's key must never reach the hub. */
  hubToken: string | undefined;
}

/** Shared by every client in the process; keyed by hub URL and model id. */
export const mappingCache = new TtlCache<ProviderMapping[]>();

/** How long a model's mappings are kept when the caller does not say (`mappingTtlMs`). */
export const DEFAULT_MAPPING_TTL_MS = 5 * 60_000;

/**
 * The cache key of a model on a hub. The last one is kept: a caller asks for one model on one hub call
 * after call, and a key built per call is a new string the cache's Map must flatten and hash every time
 * (~2 µs of a routed chat, bench/results/2026-11-30-inference-3.md), where the same string is hashed once.
 */
let lastHubUrl: string | undefined;
let lastModel: string | undefined;
let lastKey = "";
function mappingKey(hubUrl: string, model: string): string {
  if (hubUrl !== lastHubUrl || model !== lastModel) {
    lastKey = `${hubUrl}\u0000${model}`;
    lastHubUrl = hubUrl;
    lastModel = model;
  }
  return lastKey;
}

/** A model's mappings if the cache holds them (no I/O): what the routed chat fast path routes on. */
export function cachedProviderMappings(hubUrl: string, model: string): ProviderMapping[] | undefined {
  return mappingCache.get(mappingKey(hubUrl, model));
}

const hubHeaders = (hub: HubAccess): Record<string, string> =>
  hub.hubToken ? { Authorization: `Bearer ${hub.hubToken}` } : {};

async function hubGetJson(call: CallContext, hub: HubAccess, path: string, what: string): Promise<unknown> {
  const url = `${hub.hubUrl.replace(/\/+$/, "")}${path}`;
  try {
    const response = await sendRequest(call, {
      url,
      method: "GET",
      headers: hubHeaders(hub),
      provider: "hub",
    });
    return await response.json();
  } catch (error) {
    // Abort, timeout and network failures keep their own type; a hub answer that is not OK is a routing error.
    if (!ProviderApiError.isInstance(error) && !(error instanceof SyntaxError)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new RoutingError(`${what}: ${reason}`, { cause: error });
  }
}

/**
 * `GET {hubUrl}/api/models/{id}?expand[]=inferenceProviderMapping`, accepting both the object shape
 * (`{together: {providerId, status, task}}`) and the array shape (`[{provider, providerId, status, task}]`).
 */
export async function fetchProviderMappings(
  call: CallContext,
  hub: HubAccess,
  model: string,
  ttlMs: number,
): Promise<ProviderMapping[]> {
  const cached = ttlMs > 0 ? cachedProviderMappings(hub.hubUrl, model) : undefined;
  if (cached) return cached;
  const info = await hubGetJson(
    call,
    hub,
    `/api/models/${model}?expand[]=inferenceProviderMapping`,
    `Failed to fetch inference provider mapping for model ${model}`,
  );
  const raw = isObject(info) ? info.inferenceProviderMapping : undefined;
  const list: unknown[] = Array.isArray(raw)
    ? raw
    : isObject(raw)
      ? Object.entries(raw).map(([provider, entry]) => ({ provider, ...(isObject(entry) ? entry : {}) }))
      : [];
  const mappings = list
    .filter(
      (m): m is ProviderMapping =>
        isObject(m) && isString(m.provider) && isString(m.providerId) && isString(m.task),
    )
    .map((m) => ({
      provider: m.provider,
      providerId: m.providerId,
      status: String(m.status ?? "live"),
      task: m.task,
      ...(isString(m.adapter) ? { adapter: m.adapter } : {}),
      ...(isString(m.adapterWeightsPath) ? { adapterWeightsPath: m.adapterWeightsPath } : {}),
    }));
  mappingCache.set(mappingKey(hub.hubUrl, model), mappings, ttlMs);
  return mappings;
}

/** The default model for a task, from `GET {hubUrl}/api/tasks` (`widgetModels[0]`, or `models[0].id`). */
export async function fetchDefaultModel(
  call: CallContext,
  hub: HubAccess,
  task: InferenceTask,
): Promise<string> {
  const tasks = await hubGetJson(call, hub, "/api/tasks", "Failed to load tasks definitions from the hub");
  const entry = isObject(tasks) ? tasks[task] : undefined;
  const widget = isObject(entry) && Array.isArray(entry.widgetModels) ? entry.widgetModels[0] : undefined;
  const listed =
    isObject(entry) && Array.isArray(entry.models) && isObject(entry.models[0])
      ? entry.models[0].id
      : undefined;
  const model = isString(widget) ? widget : isString(listed) ? listed : undefined;
  if (!model)
    throw new RoutingError(`No default model defined for task ${task}, please define the model explicitly.`);
  return model;
}
