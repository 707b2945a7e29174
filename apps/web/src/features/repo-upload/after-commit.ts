import type { NavigateFunction } from "react-router";
import { queryClient } from "../../lib/query-client.js";
import { type RepoRef, repoPageUrl } from "../../lib/repo-ref.js";
import type { CommitResult } from "./commit-files.js";

/** The page of a pull request from the hub's `pullRequestUrl` (`{public url}/{id}/discussions/N`). */
export function pullRequestPath(repo: RepoRef, pullRequestUrl: string): string {
  const number = /\/discussions\/(\d+)/.exec(pullRequestUrl)?.[1];
  return repoPageUrl(repo, number ? `discussions/${number}` : "discussions");
}

/**
 * After a commit made in the browser: what it may have changed is read again (the files, their history and
 * texts, the model and repository pages), then the committer lands on the pull request it opened, or else
 * on `page`.
 */
export async function afterCommit(
  repo: RepoRef,
  result: CommitResult,
  page: string,
  navigate: NavigateFunction,
) {
  const changed = ["tree", "commits", "path-info", "file-text", "repo-info"].map((key) => [
    key,
    repo.type,
    repo.id,
  ]);
  await Promise.all([...changed, ["model"]].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  navigate(result.pullRequestUrl ? pullRequestPath(repo, result.pullRequestUrl) : page);
}
