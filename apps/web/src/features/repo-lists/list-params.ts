import { REPO_SORTS, type RepoListQuery, type RepoSort } from "../../lib/api/repos.js";

export const PAGE_SIZE = 30;

export interface RepoListParams {
  search: string;
  /** One owner's repositories (the owner pages link here). */
  author: string;
  sort: RepoSort;
  cursor?: string;
}

function isSort(value: string | null): value is RepoSort {
  return value !== null && (REPO_SORTS as readonly string[]).includes(value);
}

/** The dataset and space lists keep their state in the URL: `?search=&author=&sort=&cursor=`. */
export function readRepoListParams(params: URLSearchParams): RepoListParams {
  const sort = params.get("sort");
  return {
    search: params.get("search") ?? "",
    author: params.get("author") ?? "",
    sort: isSort(sort) ? sort : "updated",
    cursor: params.get("cursor") || undefined,
  };
}

/** Only what differs from the defaults, so a shared URL stays short. */
export function writeRepoListParams(list: RepoListParams): URLSearchParams {
  const params = new URLSearchParams();
  if (list.search) params.set("search", list.search);
  if (list.author) params.set("author", list.author);
  if (list.sort !== "updated") params.set("sort", list.sort);
  if (list.cursor) params.set("cursor", list.cursor);
  return params;
}

export function toRepoApiQuery(type: RepoListQuery["type"], list: RepoListParams): RepoListQuery {
  return {
    type,
    search: list.search.trim() || undefined,
    author: list.author || undefined,
    sort: list.sort,
    cursor: list.cursor,
    limit: PAGE_SIZE,
  };
}
