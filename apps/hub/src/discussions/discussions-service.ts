import type { RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import type { Store } from "../store/store.js";
import type { DiscussionsTable } from "./discussions-table.js";
import { createPullRequests } from "./pull-requests.js";

/** A table method's parameters after the repository key (which the service takes from the repository). */
type AfterRepoKey<F> = F extends (repoKey: number, ...rest: infer R) => unknown ? R : never;

/**
 * Discussions and pull requests of a repository: what the discussions routes (and a commit to `refs/pr/N`)
 * read and change. The routes reach the discussions table, the accounts and the refs only through here.
 */
export function createDiscussionsService({ store, repos }: { store: Store; repos: RepoService }) {
  const table: DiscussionsTable = store.discussions;
  return {
    /** Diffs, merges and the refs of pull requests (pull-requests.ts). */
    pullRequests: createPullRequests(store, repos),

    get: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["get"]>) => table.get(repo.key, ...args),
    list: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["list"]>) =>
      table.list(repo.key, ...args),
    open: (...args: Parameters<DiscussionsTable["open"]>) => table.open(...args),
    events: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["events"]>) =>
      table.events(repo.key, ...args),
    event: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["event"]>) =>
      table.event(repo.key, ...args),
    comment: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["comment"]>) =>
      table.comment(repo.key, ...args),
    rename: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["rename"]>) =>
      table.rename(repo.key, ...args),
    setStatus: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["setStatus"]>) =>
      table.setStatus(repo.key, ...args),
    editComment: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["editComment"]>) =>
      table.editComment(repo.key, ...args),
    hideComment: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["hideComment"]>) =>
      table.hideComment(repo.key, ...args),

    /** The commit a pull request's ref points at, or undefined once it is gone. */
    pullRequestHead: (repo: RepoRecord, num: number) => store.repos.ref(repo.key, `refs/pr/${num}`),

    /** A user's full name as discussions show it; the name itself for an unknown or removed user. */
    async fullname(name: string): Promise<string> {
      return (await store.accounts.users.byName(name))?.fullname ?? name;
    },
  };
}

export type DiscussionsService = ReturnType<typeof createDiscussionsService>;
