import { REPO_SORTS, type RepoListQuery, type RepoSort } from "../../lib/api/repos.js";
import { ANY } from "../../lib/card-filters.js";

export const PAGE_SIZE = 30;

export interface RepoListParams {
  search: string;
  /** One owner's repositories (the owner pages link here). */
  author: string;
  sort: RepoSort;
  /** The card filters, each `ANY` when unset. */
  license: string;
  language: string;
  /** A space's SDK (a tag of its card). */
  sdk: string;
  cursor?: string;
}

const FILTERS = ["license", "language", "sdk"] as const;

function isSort(value: string | null): value is RepoSort {
  return value !== null && (REPO_SORTS as readonly string[]).includes(value);
}

/** The dataset and space lists keep their state in the URL: `?search=&author=&sort=&license=&language=&sdk=&cursor=`. */
export function readRepoListParams(params: URLSearchParams): RepoListParams {
  const sort = params.get("sort");
  return {
    search: params.get("search") ?? "",
    author: params.get("author") ?? "",
    sort: isSort(sort) ? sort : "updated",
    license: params.get("license") || ANY,
    language: params.get("language") || ANY,
    sdk: params.get("sdk") || ANY,
    cursor: params.get("cursor") || undefined,
  };
}

/** Only what differs from the defaults, so a shared URL stays short. */
export function writeRepoListParams(list: RepoListParams): URLSearchParams {
  const params = new URLSearchParams();
  if (list.search) params.set("search", list.search);
  if (list.author) params.set("author", list.author);
  if (list.sort !== "updated") params.set("sort", list.sort);
  for (const key of FILTERS) if (list[key] !== ANY) params.set(key, list[key]);
  if (list.cursor) params.set("cursor", list.cursor);
  return params;
}

/** Whether the list is narrowed at all (a search, an owner or a card filter): else it holds every one. */
export function isFiltered(list: RepoListParams): boolean {
  return list.search.trim() !== "" || list.author !== "" || FILTERS.some((key) => list[key] !== ANY);
}

const chosen = (value: string) => (value === ANY ? undefined : value);

export function toRepoApiQuery(type: RepoListQuery["type"], list: RepoListParams): RepoListQuery {
  const sdk = type === "space" ? chosen(list.sdk) : undefined;
  return {
    type,
    search: list.search.trim() || undefined,
    author: list.author || undefined,
    license: chosen(list.license),
    language: chosen(list.language),
    tags: sdk ? [sdk] : undefined,
    sort: list.sort,
    cursor: list.cursor,
    limit: PAGE_SIZE,
  };
}
