import { queryOptions } from "@tanstack/react-query";
import { type RepoRef, repoApiUrl } from "../repo-ref.js";
import { hubGet } from "./hub-fetch.js";

/** Shapes of the discussions API (notes/api-prs.md; the public hub's community.py shapes). */
export interface DiscussionAuthor {
  name: string;
  fullname?: string;
  avatarUrl?: string;
  isOwner?: boolean;
}

export type DiscussionStatus = "draft" | "open" | "closed" | "merged";

export interface DiscussionSummary {
  num: number;
  title: string;
  status: DiscussionStatus;
  isPullRequest: boolean;
  createdAt: string;
  author: DiscussionAuthor;
  numComments: number;
}

export interface DiscussionEvent {
  id: string;
  type: "comment" | "status-change" | "title-change" | "commit" | string;
  createdAt: string;
  author: DiscussionAuthor;
  data: {
    latest?: { raw: string };
    hidden?: boolean;
    edited?: boolean;
    status?: DiscussionStatus;
    from?: string;
    to?: string;
    subject?: string;
    oid?: string;
  };
}

export interface DiscussionDetails extends DiscussionSummary {
  events: DiscussionEvent[];
  changes?: { base: string; mergeCommitId?: string; baseOid: string; headOid: string };
  filesWithConflicts: string[];
}

export interface DiscussionList {
  discussions: DiscussionSummary[];
  count: number;
  start: number;
  numClosedDiscussions: number;
}

export type DiscussionFilter = {
  type: "all" | "discussion" | "pull_request";
  status: "all" | "open" | "closed";
};

export const discussionsQuery = (repo: RepoRef, filter: DiscussionFilter, page: number) =>
  queryOptions({
    queryKey: ["discussions", repo.type, repo.id, filter, page],
    queryFn: async ({ signal }) => {
      const params = new URLSearchParams({ p: String(page), type: filter.type, status: filter.status });
      return (await hubGet<DiscussionList>(`${repoApiUrl(repo, "discussions")}?${params}`, signal)).data;
    },
    staleTime: 10_000,
  });

export const discussionQuery = (repo: RepoRef, num: number) =>
  queryOptions({
    queryKey: ["discussion", repo.type, repo.id, num],
    queryFn: async ({ signal }) =>
      (await hubGet<DiscussionDetails>(repoApiUrl(repo, `discussions/${num}`), signal)).data,
    staleTime: 5_000,
  });

/** Pages of 50, as the hub answers them. */
export const DISCUSSIONS_PAGE_SIZE = 50;
