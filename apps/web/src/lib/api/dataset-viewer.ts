import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { HubApiError, hubError, hubGet } from "./hub-fetch.js";

/**
 * The dataset viewer's API (`/datasets-server/…`, the public viewer's shapes; hub: viewer/viewer-api.ts).
 * Calls send the session cookie, so private and gated datasets answer as their files do.
 */
const BASE = "/datasets-server";

/** Rows per /rows, /search and /filter call: the API's own limit. */
export const VIEWER_PAGE_ROWS = 100;

/** A column's type as the `datasets` library writes features (Value, List, a struct as an object). */
export type FeatureType = { _type?: string; dtype?: string; feature?: FeatureType } & Record<string, unknown>;

export interface ViewerFeature {
  feature_idx: number;
  name: string;
  type: FeatureType;
}

export interface ViewerRow {
  row_idx: number;
  row: Record<string, unknown>;
}

export interface ViewerPage {
  features: ViewerFeature[];
  rows: ViewerRow[];
  num_rows_total: number;
  partial: boolean;
}

export interface SplitName {
  config: string;
  split: string;
}

/** The conversion's state (`/status`, this hub's own): queued, running, done or error with its reason. */
export interface ViewerStatus {
  status: string;
  error: string | null;
}

export interface ColumnStatistics {
  column_name: string;
  column_type: string;
  column_statistics: {
    nan_count?: number;
    nan_proportion?: number;
    histogram?: { hist: number[]; bin_edges: Array<number | string> } | null;
    frequencies?: Record<string, number>;
    n_unique?: number;
  };
}

export interface SqlAnswer {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  offset: number;
  truncated: boolean;
  tables: string[];
}

const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)])).toString();

export const viewerStatusQuery = (dataset: string) =>
  queryOptions({
    queryKey: ["viewer", dataset, "status"],
    queryFn: async ({ signal }) =>
      (await hubGet<ViewerStatus>(`${BASE}/status?${query({ dataset })}`, signal)).data,
    // A queued or running conversion is asked about again until it has finished.
    refetchInterval: (current) =>
      current.state.data && ["queued", "running"].includes(current.state.data.status) ? 3_000 : false,
  });

export const viewerSplitsQuery = (dataset: string, enabled: boolean) =>
  queryOptions({
    queryKey: ["viewer", dataset, "splits"],
    queryFn: async ({ signal }) =>
      (await hubGet<{ splits: SplitName[] }>(`${BASE}/splits?${query({ dataset })}`, signal)).data.splits,
    enabled,
  });

export const viewerStatisticsQuery = (dataset: string, split: SplitName) =>
  queryOptions({
    queryKey: ["viewer", dataset, "statistics", split.config, split.split],
    queryFn: async ({ signal }) => {
      try {
        return (
          await hubGet<{ statistics: ColumnStatistics[] }>(
            `${BASE}/statistics?${query({ dataset, ...split })}`,
            signal,
          )
        ).data.statistics;
      } catch (error) {
        // A split converted without statistics: the headers show types alone.
        if (error instanceof HubApiError && error.status === 503) return [];
        throw error;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  });

/** What the table shows: every row, the rows a search matches, or the rows a filter keeps in its order. */
export type RowSource =
  | { kind: "rows" }
  | { kind: "search"; text: string }
  | { kind: "filter"; where: string; orderby: string };

/** One page (≤ 100 rows from `offset`) of a split as `source` selects it. */
export const viewerPageQuery = (dataset: string, split: SplitName, source: RowSource, offset: number) =>
  queryOptions({
    queryKey: ["viewer", dataset, "page", split.config, split.split, source, offset],
    queryFn: async ({ signal }) => {
      const page = { dataset, ...split, offset, length: VIEWER_PAGE_ROWS };
      const path =
        source.kind === "rows"
          ? `/rows?${query(page)}`
          : source.kind === "search"
            ? `/search?${query({ ...page, query: source.text })}`
            : `/filter?${query({
                ...page,
                ...(source.where ? { where: source.where } : {}),
                ...(source.orderby ? { orderby: source.orderby } : {}),
              })}`;
      return (await hubGet<ViewerPage>(`${BASE}${path}`, signal)).data;
    },
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    // A bad filter answers the same the second time: only a server or network failure is retried.
    retry: (failures, error) => failures < 1 && !(error instanceof HubApiError && error.status < 500),
  });

/**
 * Runs a read-only query in the SQL console (`POST /datasets-server/sql`). Signed-in callers send the
 * session's CSRF token, as every cookie-authenticated POST must; `signal` cancels it.
 */
export async function runViewerSql(
  dataset: string,
  sql: string,
  offset: number,
  length: number,
  csrfToken: string | undefined,
  signal: AbortSignal,
): Promise<SqlAnswer> {
  const path = `${BASE}/sql`;
  const response = await fetch(path, {
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      ...(csrfToken ? { "X-CSRF-Token": csrfToken } : {}),
    },
    body: JSON.stringify({ dataset, sql, offset, length }),
    signal,
  });
  if (!response.ok) throw await hubError(response, path);
  return (await response.json()) as SqlAnswer;
}
