import { queryOptions } from "@tanstack/react-query";
import { type RepoRef, repoApiUrl } from "../repo-ref.js";
import { hubGet, hubSend } from "./hub-fetch.js";
import { type ListingQuery, listingQuery, listingUrl } from "./list-page.js";

/** `GET /api/{datasets|spaces}/{id}`: the repository and what its README's front matter says. */
export interface RepoInfo {
  id: string;
  author?: string;
  sha?: string;
  private?: boolean;
  gated?: false | "auto" | "manual";
  likes?: number;
  downloads?: number;
  tags?: string[];
  lastModified?: string;
  createdAt?: string;
  cardData?: Record<string, unknown>;
  cardText?: string;
  /** A space's SDK (gradio, streamlit, docker, static). */
  sdk?: string;
  siblings?: Array<{ rfilename: string }>;
  /** A mirrored repository: the upstream hub it mirrors and its page there. */
  mirror?: RepoMirrorInfo;
}

/** `mirror` of a mirrored repository's info (hub: repos/read-routes.ts mirrorField). */
export interface RepoMirrorInfo {
  upstream: string;
  url: string;
}

export const repoInfoQuery = (repo: RepoRef) =>
  queryOptions({
    queryKey: ["repo-info", repo.type, repo.id],
    queryFn: async ({ signal }) => (await hubGet<RepoInfo>(repoApiUrl(repo), signal)).data,
    staleTime: 30_000,
  });

/** One row of `GET /api/datasets` or `GET /api/spaces`. */
export interface RepoSummary {
  id: string;
  author: string;
  private: boolean;
  gated: false | "auto" | "manual";
  likes: number;
  downloads: number;
  createdAt: string;
  /** Absent from the models API's listings (as on the public hub), which the owner's page reads too. */
  lastModified?: string;
  /** What the card says: its tags, `license:...`, `language:...`, a space's SDK. */
  tags: string[];
  /** A space's SDK (`gradio`, `static`...). */
  sdk?: string;
}

export const REPO_SORTS = ["updated", "created", "name"] as const;
export type RepoSort = (typeof REPO_SORTS)[number];

/** The hub's sort and direction for each sort the dataset and space lists offer. */
const REPO_SORT_KEYS: Record<RepoSort, [string, "1" | "-1"]> = {
  updated: ["lastModified", "-1"],
  created: ["createdAt", "-1"],
  name: ["id", "1"],
};

export interface RepoListQuery extends ListingQuery<RepoSort> {
  type: "dataset" | "space";
  search?: string;
  author?: string;
  license?: string;
  language?: string;
  /** Card tags every row must carry (a space's SDK is one). */
  tags?: string[];
}

export function repoListUrl(query: RepoListQuery): string {
  const filters: Array<[string, string | undefined]> = [
    ["search", query.search],
    ["author", query.author],
    ...(query.tags ?? []).map((tag): [string, string] => ["filter", tag]),
    ["license", query.license],
    ["language", query.language],
  ];
  const [sort, direction] = REPO_SORT_KEYS[query.sort];
  return listingUrl(`/api/${query.type}s`, filters, {
    sort,
    direction,
    limit: query.limit,
    cursor: query.cursor,
  });
}

export const repoListQuery = (query: RepoListQuery) =>
  listingQuery<RepoSummary>("repos", query, repoListUrl(query));

/** What a new repository is made with: `POST /api/repos/create` (a space's SDK goes in its README). */
export interface NewRepo {
  type: RepoRef["type"];
  owner: string;
  name: string;
  private: boolean;
  sdk?: string;
}

export async function createRepo(repo: NewRepo, csrfToken: string): Promise<RepoRef> {
  const answer = await hubSend<{ id?: string; name?: string }>("POST", "/api/repos/create", csrfToken, {
    json: {
      type: repo.type,
      name: repo.name,
      organization: repo.owner,
      private: repo.private,
      ...(repo.sdk ? { sdk: repo.sdk } : {}),
    },
  });
  return { type: repo.type, id: answer.id ?? answer.name ?? `${repo.owner}/${repo.name}` };
}

/** `GET /api/users/{name}/overview`: a user's public profile. */
export interface UserOverview {
  user: string;
  fullname: string;
  avatarUrl: string;
  createdAt?: string;
  orgs: Array<{ name: string; fullname: string; avatarUrl: string }>;
}

export const userOverviewQuery = (name: string) =>
  queryOptions({
    queryKey: ["user-overview", name.toLowerCase()],
    queryFn: async ({ signal }) =>
      (await hubGet<UserOverview>(`/api/users/${encodeURIComponent(name)}/overview`, signal)).data,
    staleTime: 60_000,
    retry: false,
  });
