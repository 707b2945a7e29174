import { queryOptions } from "@tanstack/react-query";
import type { RepoRef } from "../repo-ref.js";
import { hubGet, hubSend, modelPath } from "./hub-fetch.js";

/** A repository's likes on this hub, and whether the viewer is among them. */
export interface LikeState {
  likes: number;
  liked: boolean;
}

const likeUrl = (repo: RepoRef) => `/api/${repo.type}s/${modelPath(repo.id)}/like`;

export const likeQuery = (repo: RepoRef) =>
  queryOptions({
    queryKey: ["like", repo.type, repo.id],
    queryFn: async ({ signal }) => (await hubGet<LikeState>(likeUrl(repo), signal)).data,
  });

/** Likes the repository (or takes the like back) as the signed-in viewer. */
export function setLiked(repo: RepoRef, liked: boolean, csrfToken: string): Promise<LikeState> {
  return hubSend<LikeState>(liked ? "POST" : "DELETE", likeUrl(repo), csrfToken);
}

/** A repository the landing page lists as trending on this hub. */
export interface TrendingRepo {
  type: RepoRef["type"];
  id: string;
  score: number;
}

export const trendingQuery = (limit: number) =>
  queryOptions({
    queryKey: ["trending", limit],
    queryFn: async ({ signal }) =>
      (await hubGet<TrendingRepo[]>(`/api/trending?limit=${limit}`, signal)).data,
  });
