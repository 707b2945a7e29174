import { EXPAND_FIELDS, type ProviderMappingView } from "@modelhub/hub/api";
import type { ModelData, PipelineType } from "@modelhub/tasks";
import { queryOptions } from "@tanstack/react-query";
import { hubGet, modelPath } from "./hub-fetch.js";
import { type ListingQuery, listingQuery, listingUrl } from "./list-page.js";

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

export interface ModelListQuery extends ListingQuery<ModelSort> {
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
}

export function modelListUrl(query: ModelListQuery): string {
  const filters: Array<[string, string | undefined]> = [
    ["search", query.search],
    ["pipeline_tag", query.pipelineTag],
    ["library", query.library],
    ["inference_provider", query.provider],
    ["author", query.author],
    ["license", query.license],
    ["language", query.language],
    ["num_parameters", query.numParameters],
    ["apps", query.app],
  ];
  const { limit, cursor } = query;
  return listingUrl("/api/models", filters, { sort: SORT_KEYS[query.sort], direction: "-1", limit, cursor });
}

export const modelListQuery = (query: ModelListQuery) =>
  listingQuery<ModelSummary>("models", query, modelListUrl(query));

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
