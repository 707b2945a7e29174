import { MODEL_SORTS, type ModelListQuery, type ModelSort } from "../../lib/api/models.js";
import { ANY } from "../../lib/card-filters.js";

export { ANY };

export const PAGE_SIZE = 30;

/** Parameter-size buckets of the filter, as the hub's `num_parameters` bounds. */
export const PARAMETER_SIZES = {
  lt1b: { label: "Under 1B", bounds: "max:1B" },
  "1b-3b": { label: "1B to 3B", bounds: "min:1B,max:3B" },
  "3b-8b": { label: "3B to 8B", bounds: "min:3B,max:8B" },
  "8b-15b": { label: "8B to 15B", bounds: "min:8B,max:15B" },
  "15b-40b": { label: "15B to 40B", bounds: "min:15B,max:40B" },
  "40b-100b": { label: "40B to 100B", bounds: "min:40B,max:100B" },
  gt100b: { label: "Over 100B", bounds: "min:100B" },
} as const;
export type ParameterSize = keyof typeof PARAMETER_SIZES;

/** The filters a select sets, each `ANY` when unset: URL key -> list field. */
const SELECT_FILTERS = ["task", "library", "provider", "license", "language", "params", "app"] as const;
type SelectFilter = (typeof SELECT_FILTERS)[number];

export interface ListParams extends Record<SelectFilter, string> {
  search: string;
  /** An owner's models only (the owner pages link here); no control, only the URL. */
  author: string;
  sort: ModelSort;
  cursor?: string;
}

function isSort(value: string | null): value is ModelSort {
  return value !== null && (MODEL_SORTS as readonly string[]).includes(value);
}

/**
 * The list state lives in the URL:
 * `?search=&author=&task=&library=&provider=&license=&language=&params=&app=&sort=&cursor=`.
 */
export function readListParams(params: URLSearchParams): ListParams {
  const sort = params.get("sort");
  const size = params.get("params");
  const selects = Object.fromEntries(SELECT_FILTERS.map((key) => [key, params.get(key) || ANY])) as Record<
    SelectFilter,
    string
  >;
  return {
    search: params.get("search") ?? "",
    author: params.get("author") ?? "",
    ...selects,
    params: size && size in PARAMETER_SIZES ? size : ANY,
    sort: isSort(sort) ? sort : "trending",
    cursor: params.get("cursor") || undefined,
  };
}

/** Writes only what differs from the defaults, so a shared URL stays short. */
export function writeListParams(list: ListParams): URLSearchParams {
  const params = new URLSearchParams();
  if (list.search) params.set("search", list.search);
  if (list.author) params.set("author", list.author);
  for (const key of SELECT_FILTERS) if (list[key] !== ANY) params.set(key, list[key]);
  if (list.sort !== "trending") params.set("sort", list.sort);
  if (list.cursor) params.set("cursor", list.cursor);
  return params;
}

export function toApiQuery(list: ListParams): ModelListQuery {
  const filter = (value: string) => (value === ANY ? undefined : value);
  return {
    search: list.search.trim() || undefined,
    author: list.author || undefined,
    pipelineTag: filter(list.task),
    library: filter(list.library),
    provider: filter(list.provider),
    license: filter(list.license),
    language: filter(list.language),
    numParameters: list.params === ANY ? undefined : PARAMETER_SIZES[list.params as ParameterSize]?.bounds,
    app: filter(list.app),
    sort: list.sort,
    cursor: list.cursor,
    limit: PAGE_SIZE,
  };
}
