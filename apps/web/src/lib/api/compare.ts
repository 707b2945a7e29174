import { queryOptions } from "@tanstack/react-query";
import { type RepoRef, repoApiUrl } from "../repo-ref.js";
import { hubGet } from "./hub-fetch.js";

/** One changed file of `GET /api/{type}s/{id}/compare/{rev}?format=json` (see notes/api-prs.md). */
export interface FileDiff {
  path: string;
  oldPath?: string;
  status: "added" | "modified" | "deleted";
  lfs: boolean;
  oldOid?: string;
  newOid?: string;
  oldSize?: number;
  newSize?: number;
  binary: boolean;
  additions: number;
  deletions: number;
  /** Unified diff hunks; absent for binary, LFS and very large files. */
  patch?: string;
}

export interface Comparison {
  base: { revision: string; oid: string } | null;
  head: { revision: string; oid: string };
  files: FileDiff[];
  truncated: boolean;
}

/** A commit against its first parent (`rev`), or two revisions (`base..head`). */
export const compareQuery = (repo: RepoRef, range: string) =>
  queryOptions({
    queryKey: ["compare", repo.type, repo.id, range],
    queryFn: async ({ signal }) =>
      (await hubGet<Comparison>(repoApiUrl(repo, `compare/${range}?format=json`), signal)).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
