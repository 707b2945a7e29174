import { queryOptions } from "@tanstack/react-query";
import { hubGet } from "./hub-fetch.js";
import { cursorFrom, nextLinkFrom } from "./link-header.js";

/** One page of a hub listing: its rows, the next page's cursor (`Link`), the match count (`X-Total-Count`). */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
  total?: number;
}

export async function hubGetListPage<T>(url: string, signal?: AbortSignal): Promise<ListPage<T>> {
  const { data, headers } = await hubGet<T[]>(url, signal);
  const total = Number.parseInt(headers.get("x-total-count") ?? "", 10);
  return {
    items: data,
    nextCursor: cursorFrom(nextLinkFrom(headers.get("link"))),
    ...(Number.isFinite(total) ? { total } : {}),
  };
}

/** Which page of a listing, in which order: the hub's sort field, its direction, the page size, the cursor. */
export interface ListingPage {
  sort: string;
  direction: "1" | "-1";
  limit: number;
  cursor?: string;
}

/**
 * A hub listing's URL: `path` with the filters that are set, in their order (a name may repeat, as
 * `filter` does), then the page's sort, direction, size and cursor.
 */
export function listingUrl(
  path: string,
  filters: Array<[string, string | undefined]>,
  page: ListingPage,
): string {
  const params = new URLSearchParams();
  for (const [name, value] of filters) if (value) params.append(name, value);
  params.set("sort", page.sort);
  params.set("direction", page.direction);
  params.set("limit", String(page.limit));
  if (page.cursor) params.set("cursor", page.cursor);
  return `${path}?${params}`;
}

/** What every listing query names besides its filters: the sort, the page size and the cursor. */
export interface ListingQuery<Sort extends string> {
  sort: Sort;
  cursor?: string;
  limit: number;
}

/** A listing page as a query, keyed by `key` and the query that made `url`, kept fresh for 30 s. */
export const listingQuery = <T>(key: string, query: object, url: string) =>
  queryOptions({
    queryKey: [key, query],
    queryFn: ({ signal }) => hubGetListPage<T>(url, signal),
    staleTime: 30_000,
  });
