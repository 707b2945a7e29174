import type { RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import type { Store, StoreTransaction } from "../store/store.js";
import { eventRepo, type HubEvent, type HubEventRecorder } from "../webhooks/hub-events.js";
import type { DiscussionEventRecord, DiscussionRecord } from "./discussion-records.js";
import type { DiscussionsTable } from "./discussions-table.js";
import { createPullRequests } from "./pull-requests.js";

/** A table method's parameters after the repository key (which the service takes from the repository). */
type AfterRepoKey<F> = F extends (repoKey: number, ...rest: infer R) => unknown ? R : never;

/**
 * Discussions and pull requests of a repository: what the discussions routes (and a commit to `refs/pr/N`)
 * read and change. The routes reach the discussions table, the accounts and the refs only through here.
 */
export function createDiscussionsService({
  store,
  repos,
  events,
}: {
  store: Store;
  repos: RepoService;
  /** Webhooks' events, queued in the transaction of each change (webhooks/hub-events.ts). */
  events?: HubEventRecorder;
}) {
  const table: DiscussionsTable = store.discussions;

  /**
   * Runs a discussions write and queues its webhook event in one transaction: the event is told only if the
   * change landed. `describe` says what happened from the write's result (undefined: nothing to tell).
   */
  async function withEvent<T>(
    repoKey: number,
    num: number | ((result: T) => number),
    write: (tx: StoreTransaction) => Promise<T>,
    describe: (result: T) => Pick<HubEvent, "scope" | "action" | "comment"> | undefined,
  ): Promise<T> {
    return store.writeTransaction(async (tx) => {
      const result = await write(tx);
      const told = events ? describe(result) : undefined;
      const repo = told ? await tx.repos.byKey(repoKey) : undefined;
      const discussion = repo
        ? await tx.discussions.get(repoKey, typeof num === "number" ? num : num(result))
        : undefined;
      if (events && told && repo && discussion) {
        await events.record(tx, {
          ...told,
          repo: await eventRepo(tx, repo),
          discussion: discussionOf(discussion),
        });
      }
      return result;
    });
  }

  const commentCreated = (event: DiscussionEventRecord) =>
    ({ scope: "discussion.comment", action: "create", comment: commentOf(event) }) as const;
  const commentUpdated = (event: DiscussionEventRecord | undefined) =>
    event
      ? ({ scope: "discussion.comment", action: "update", comment: commentOf(event) } as const)
      : undefined;

  return {
    /** Diffs, merges and the refs of pull requests (pull-requests.ts). */
    pullRequests: createPullRequests(store, repos),

    get: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["get"]>) => table.get(repo.key, ...args),
    list: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["list"]>) =>
      table.list(repo.key, ...args),
    open: (input: Parameters<DiscussionsTable["open"]>[0]) =>
      withEvent(
        input.repoKey,
        (opened: DiscussionRecord) => opened.num,
        (tx) => tx.discussions.open(input),
        () => ({ scope: "discussion", action: "create" }),
      ),
    events: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["events"]>) =>
      table.events(repo.key, ...args),
    event: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["event"]>) =>
      table.event(repo.key, ...args),
    comment: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["comment"]>) =>
      withEvent(repo.key, args[0], (tx) => tx.discussions.comment(repo.key, ...args), commentCreated),
    rename: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["rename"]>) =>
      withEvent(
        repo.key,
        args[0],
        (tx) => tx.discussions.rename(repo.key, ...args),
        () => ({ scope: "discussion", action: "update" }),
      ),
    setStatus: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["setStatus"]>) =>
      withEvent(
        repo.key,
        args[0],
        (tx) => tx.discussions.setStatus(repo.key, ...args),
        () => ({ scope: "discussion", action: "update" }),
      ),
    editComment: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["editComment"]>) =>
      withEvent(repo.key, args[0], (tx) => tx.discussions.editComment(repo.key, ...args), commentUpdated),
    hideComment: (repo: RepoRecord, ...args: AfterRepoKey<DiscussionsTable["hideComment"]>) =>
      withEvent(repo.key, args[0], (tx) => tx.discussions.hideComment(repo.key, ...args), commentUpdated),

    /** The commit a pull request's ref points at, or undefined once it is gone. */
    pullRequestHead: (repo: RepoRecord, num: number) => store.repos.ref(repo.key, `refs/pr/${num}`),

    /** A user's full name as discussions show it; the name itself for an unknown or removed user. */
    async fullname(name: string): Promise<string> {
      return (await store.accounts.users.byName(name))?.fullname ?? name;
    },
  };
}

export type DiscussionsService = ReturnType<typeof createDiscussionsService>;

/** A discussion as webhooks are told of it. */
function discussionOf(discussion: DiscussionRecord): NonNullable<HubEvent["discussion"]> {
  return {
    num: discussion.num,
    title: discussion.title,
    status: discussion.status,
    isPullRequest: discussion.isPullRequest,
    author: discussion.author,
    ...(discussion.targetRef ? { base: discussion.targetRef } : {}),
  };
}

function commentOf(event: DiscussionEventRecord): NonNullable<HubEvent["comment"]> {
  return { id: event.id, author: event.author, content: event.body, hidden: event.hidden };
}
