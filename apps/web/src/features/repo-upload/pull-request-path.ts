import { type RepoRef, repoPageUrl } from "../../lib/repo-ref.js";

/** The page of a pull request from the hub's `pullRequestUrl` (`{public url}/{id}/discussions/N`). */
export function pullRequestPath(repo: RepoRef, pullRequestUrl: string): string {
  const number = /\/discussions\/(\d+)/.exec(pullRequestUrl)?.[1];
  return repoPageUrl(repo, number ? `discussions/${number}` : "discussions");
}
