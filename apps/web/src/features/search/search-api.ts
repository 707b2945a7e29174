import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { hubGet } from "../../lib/api/hub-fetch.js";

export type RepoKind = "model" | "dataset" | "space";
export const REPO_KINDS: readonly RepoKind[] = ["model", "dataset", "space"];

/** `/api/quicksearch` (hub: search/search-routes.ts): the best few of each kind, and how many there are. */
export interface QuickResults {
  q: string;
  models: Array<{ id: string; private?: boolean }>;
  datasets: Array<{ id: string; private?: boolean }>;
  spaces: Array<{ id: string; private?: boolean }>;
  users: Array<{ user: string; fullname: string }>;
  orgs: Array<{ name: string; fullname: string }>;
  modelsCount: number;
  datasetsCount: number;
  spacesCount: number;
}

export interface FullTextHit {
  repoId: string;
  repoType: RepoKind;
  private: boolean;
  tags: string[];
  text: string;
  formatted: { text: string };
}

export interface FullTextResults {
  q: string;
  hits: FullTextHit[];
  numHits: number;
  numTotalHits: number;
}

export const quickSearchQuery = (q: string) =>
  queryOptions({
    queryKey: ["quicksearch", q],
    queryFn: async ({ signal }) =>
      (await hubGet<QuickResults>(`/api/quicksearch?${new URLSearchParams({ q, limit: "4" })}`, signal)).data,
    enabled: q.trim() !== "",
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

export const FULL_TEXT_PAGE = 20;

export const fullTextQuery = (q: string, type: RepoKind | undefined, skip: number) =>
  queryOptions({
    queryKey: ["full-text", q, type ?? "all", skip],
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({ q, limit: String(FULL_TEXT_PAGE), skip: String(skip) });
      if (type) params.set("type", type);
      return (await hubGet<FullTextResults>(`/api/search/full-text?${params}`, signal)).data;
    },
    enabled: q.trim() !== "",
    placeholderData: keepPreviousData,
  });

/** A repository's page in the web app, as on the public hub. */
export function repoHref(type: RepoKind, id: string): string {
  const path = id.split("/").map(encodeURIComponent).join("/");
  return type === "model" ? `/${path}` : `/${type}s/${path}`;
}
