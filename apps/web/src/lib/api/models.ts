import { EXPAND_FIELDS, type ProviderMappingView } from "@modelhub/hub/api";
import type { ModelData, PipelineType } from "@modelhub/tasks";
import { queryOptions } from "@tanstack/react-query";
import { hubGet, modelPath } from "./hub-fetch.js";
import { hubGetListPage } from "./list-page.js";

/** One row of `GET /api/models` (the public hub's list shape). */
export interface ModelSummary {
  id: string;
  pipeline_tag?: PipelineType;
  library_name?: string;
  tags?: string[];
  downloads?: number;
  likes?: number;
  trendingScore?: number;
  lastModified?: string;
  private?: boolean;
  createdAt?: string;
}

export const MODEL_SORTS = ["trending", "downloads", "likes", "created"] as const;
export type ModelSort = (typeof MODEL_SORTS)[number];

/** The hub API's sort keys for each sort the list offers. */
const SORT_KEYS: Record<ModelSort, string> = {
  trending: "trendingScore",
  downloads: "downloads",
  likes: "likes",
  created: "createdAt",
};

export interface ModelListQuery {
  search?: string;
  author?: string;
  pipelineTag?: string;
  library?: string;
  provider?: string;
  license?: string;
  language?: string;
  /** The hub's `num_parameters` bounds, `min:3B,max:8B`. */
  numParameters?: string;
  /** A local app's key: models it can run. */
  app?: string;
  sort: ModelSort;
  cursor?: string;
  limit: number;
}

export interface ModelListPage {
  models: ModelSummary[];
  nextCursor?: string;
  /** How many models match the query (the hub's `X-Total-Count`), when it says. */
  total?: number;
}

export function modelListUrl(query: ModelListQuery): string {
  const params = new URLSearchParams();
  if (query.search) params.set("search", query.search);
  if (query.pipelineTag) params.set("pipeline_tag", query.pipelineTag);
  if (query.library) params.set("library", query.library);
  if (query.provider) params.set("inference_provider", query.provider);
  if (query.author) params.set("author", query.author);
  if (query.license) params.set("license", query.license);
  if (query.language) params.set("language", query.language);
  if (query.numParameters) params.set("num_parameters", query.numParameters);
  if (query.app) params.set("apps", query.app);
  params.set("sort", SORT_KEYS[query.sort]);
  params.set("direction", "-1");
  params.set("limit", String(query.limit));
  if (query.cursor) params.set("cursor", query.cursor);
  return `/api/models?${params}`;
}

export const modelListQuery = (query: ModelListQuery) =>
  queryOptions({
    queryKey: ["models", query],
    queryFn: async ({ signal }): Promise<ModelListPage> => {
      const { items, ...page } = await hubGetListPage<ModelSummary>(modelListUrl(query), signal);
      return { models: items, ...page };
    },
    staleTime: 30_000,
  });

/** How a provider serves a model, with the provider's name (the hub keys the mapping by provider). */
export interface ProviderMapping extends ProviderMappingView {
  provider: string;
}

export interface ModelInfo extends ModelData {
  inferenceProviderMapping: ProviderMapping[];
  /** The main branch's commit, for a model with a repository (a catalogue record alone has none). */
  sha?: string;
}

/** Model info with everything the model page shows, including the provider mapping. */
export const modelQuery = (modelId: string) =>
  queryOptions({
    queryKey: ["model", modelId],
    queryFn: async ({ signal }): Promise<ModelInfo> => {
      // Every field the hub has, the provider mapping included (it is left out unless named), but the
      // repository's storage sum: no page shows it, and the hub sums every file of every commit for it.
      const fields = EXPAND_FIELDS.filter((field) => field !== "usedStorage");
      const url = `/api/models/${modelPath(modelId)}?${fields.map((field) => `expand[]=${field}`).join("&")}`;
      const { data } = await hubGet<
        ModelData & { inferenceProviderMapping?: Record<string, ProviderMappingView> }
      >(url, signal);
      const mapping = Object.entries(data.inferenceProviderMapping ?? {}).map(([provider, entry]) => ({
        ...entry,
        provider,
      }));
      return { ...data, inferenceProviderMapping: mapping };
    },
    staleTime: 60_000,
  });
