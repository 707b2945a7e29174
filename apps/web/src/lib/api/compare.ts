import type { ComparisonView } from "@modelhub/hub/api";
import { queryOptions } from "@tanstack/react-query";
import { type RepoRef, repoApiUrl } from "../repo-ref.js";
import { hubGet } from "./hub-fetch.js";

export type { FileDiff } from "@modelhub/hub/api";

/** A commit against its first parent (`rev`), or two revisions (`base..head`). */
export const compareQuery = (repo: RepoRef, range: string) =>
  queryOptions({
    queryKey: ["compare", repo.type, repo.id, range],
    queryFn: async ({ signal }) =>
      (await hubGet<ComparisonView>(repoApiUrl(repo, `compare/${range}?format=json`), signal)).data,
    staleTime: Number.POSITIVE_INFINITY,
  });
