import { MODEL_SORTS, type ModelListQuery, type ModelSort } from "../../lib/api/models.js";

/** Select value meaning "no filter": select items may not carry an empty string. */
export const ANY = "any";
export const PAGE_SIZE = 30;

export interface ListParams {
  search: string;
  task: string;
  library: string;
  provider: string;
  sort: ModelSort;
  cursor?: string;
}

function isSort(value: string | null): value is ModelSort {
  return value !== null && (MODEL_SORTS as readonly string[]).includes(value);
}

/** The list state lives in the URL: `?search=&task=&library=&provider=&sort=&cursor=`. */
export function readListParams(params: URLSearchParams): ListParams {
  const sort = params.get("sort");
  return {
    search: params.get("search") ?? "",
    task: params.get("task") || ANY,
    library: params.get("library") || ANY,
    provider: params.get("provider") || ANY,
    sort: isSort(sort) ? sort : "trending",
    cursor: params.get("cursor") || undefined,
  };
}

/** Writes only what differs from the defaults, so a shared URL stays short. */
export function writeListParams(list: ListParams): URLSearchParams {
  const params = new URLSearchParams();
  if (list.search) params.set("search", list.search);
  if (list.task !== ANY) params.set("task", list.task);
  if (list.library !== ANY) params.set("library", list.library);
  if (list.provider !== ANY) params.set("provider", list.provider);
  if (list.sort !== "trending") params.set("sort", list.sort);
  if (list.cursor) params.set("cursor", list.cursor);
  return params;
}

export function toApiQuery(list: ListParams): ModelListQuery {
  const filter = (value: string) => (value === ANY ? undefined : value);
  return {
    search: list.search.trim() || undefined,
    pipelineTag: filter(list.task),
    library: filter(list.library),
    provider: filter(list.provider),
    sort: list.sort,
    cursor: list.cursor,
    limit: PAGE_SIZE,
  };
}
