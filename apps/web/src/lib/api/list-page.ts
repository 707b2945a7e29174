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
