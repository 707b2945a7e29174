import { ConflictError, InvalidInputError, StaleParentError } from "../errors.js";
import type { CommitOperation } from "../repos/commit-engine.js";
import {
  changedFiles,
  diffFile,
  type FileChange,
  type FileDiff,
  gitDiffSection,
} from "../repos/repo-diff.js";
import type { CommitRecord, FileRecord, RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import { branchRef, prRef } from "../repos/revision.js";
import type { Store } from "../store/store.js";
import type { DiscussionRecord } from "./discussions-table.js";

/** Commits walked at most when listing a pull request's commits or looking for a merge base. */
const MAX_WALK = 1000;
/** Files diffed at most in one answer (the rest are left out and `truncated` says so). */
const MAX_DIFF_FILES = 300;

/** The merge of a pull request was refused because the target changed the same files. */
export class MergeConflictError extends ConflictError {
  constructor(readonly paths: string[]) {
    super(
      `This pull request conflicts with its target branch on: ${paths.slice(0, 20).join(", ")}${paths.length > 20 ? ", ..." : ""}.`,
    );
  }
}

export interface RevisionDiff {
  files: FileDiff[];
  /** More files changed than MAX_DIFF_FILES. */
  truncated: boolean;
}

/**
 * Pull requests over the commit engine: their commits, their diff against the commit they started from, the
 * files that conflict with the target branch, and the merge (one squashed commit on the target, titled as
 * the public hub does: `title (#N)`).
 */
export function createPullRequests(store: Store, repos: RepoService) {
  async function filesAt(repo: RepoRecord, oid: string | undefined): Promise<FileRecord[]> {
    return oid ? store.repos.files(repo.key, oid) : [];
  }

  /** First-parent history from `oid`, newest first, stopping before `stop`. */
  async function firstParentChain(repo: RepoRecord, oid: string, stop?: string): Promise<CommitRecord[]> {
    const chain: CommitRecord[] = [];
    let next: string | undefined = oid;
    while (next && next !== stop && chain.length < MAX_WALK) {
      const commit = await store.repos.commit(repo.key, next);
      if (!commit) break;
      chain.push(commit);
      next = commit.parents[0];
    }
    return chain;
  }

  /** The commit a pull request started from (recorded when opened; else the nearest common ancestor). */
  async function baseOf(repo: RepoRecord, pr: DiscussionRecord): Promise<string | undefined> {
    if (pr.baseOid) return pr.baseOid;
    const target = await store.repos.ref(repo.key, pr.targetRef ?? branchRef("main"));
    const head = await store.repos.ref(repo.key, prRef(pr.num));
    if (!target || !head) return undefined;
    const onTarget = new Set((await firstParentChain(repo, target)).map((commit) => commit.oid));
    return (await firstParentChain(repo, head)).find((commit) => onTarget.has(commit.oid))?.oid;
  }

  async function diffBetween(repo: RepoRecord, from: string | undefined, to: string): Promise<RevisionDiff> {
    const changes = changedFiles(await filesAt(repo, from), await filesAt(repo, to));
    const shown = changes.slice(0, MAX_DIFF_FILES);
    const files: FileDiff[] = [];
    for (const change of shown) files.push(await diffFile(repos.blobs, change));
    return { files, truncated: changes.length > shown.length };
  }

  /** What the pull request changes (base → head), and which of those paths the target changed otherwise. */
  async function pendingChanges(repo: RepoRecord, pr: DiscussionRecord) {
    const head = await store.repos.ref(repo.key, prRef(pr.num));
    const targetHead = await store.repos.ref(repo.key, pr.targetRef ?? branchRef("main"));
    const base = await baseOf(repo, pr);
    const changes = head ? changedFiles(await filesAt(repo, base), await filesAt(repo, head)) : [];
    const target = new Map((await filesAt(repo, targetHead)).map((file) => [file.path, file.blobOid]));
    const conflicts: string[] = [];
    const toApply: FileChange[] = [];
    for (const change of changes) {
      const onTarget = target.get(change.path);
      if (onTarget === change.after?.blobOid) continue; // the target already has it
      if (onTarget !== change.before?.blobOid) conflicts.push(change.path);
      else toApply.push(change);
    }
    return { head, targetHead, base, conflicts, toApply };
  }

  return {
    baseOf,

    /** The commits on `refs/pr/N` since its base, oldest first. */
    async commits(repo: RepoRecord, pr: DiscussionRecord): Promise<CommitRecord[]> {
      const head = await store.repos.ref(repo.key, prRef(pr.num));
      return head ? (await firstParentChain(repo, head, await baseOf(repo, pr))).reverse() : [];
    },

    /** Files the pull request changes that the target branch has changed differently since the base. */
    async conflicts(repo: RepoRecord, pr: DiscussionRecord): Promise<string[]> {
      return pr.status === "merged" ? [] : (await pendingChanges(repo, pr)).conflicts;
    },

    /** The pull request's diff: its base to its head. */
    async diff(repo: RepoRecord, pr: DiscussionRecord): Promise<RevisionDiff> {
      const head = await store.repos.ref(repo.key, prRef(pr.num));
      if (!head) return { files: [], truncated: false };
      return diffBetween(repo, await baseOf(repo, pr), head);
    },

    /** `git diff from to` (no `from`: everything in `to` is added). */
    diffBetween,

    /** The diff as `git diff` prints it. */
    gitDiffText(diff: RevisionDiff): string {
      return diff.files.map(gitDiffSection).join("");
    },

    /**
     * Squash-merges the pull request into its target: one commit applying the pull request's changes to the
     * target's current head, and the pull request marked merged in the same transaction. Refused (409) when the
     * target changed a file the pull request changes too. Retried when another commit lands meanwhile.
     */
    async merge(
      repo: RepoRecord,
      pr: DiscussionRecord,
      merger: string,
      comment?: string,
    ): Promise<{ commitOid: string }> {
      if (!pr.isPullRequest) throw new InvalidInputError(`#${pr.num} is a discussion, not a pull request.`);
      if (pr.status !== "open" && pr.status !== "draft") {
        throw new ConflictError(
          `Pull request #${pr.num} is ${pr.status}: only open pull requests can be merged.`,
        );
      }
      for (let attempt = 0; ; attempt++) {
        const pending = await pendingChanges(repo, pr);
        if (pending.conflicts.length) throw new MergeConflictError(pending.conflicts);
        const operations: CommitOperation[] = pending.toApply.map((change) =>
          change.after
            ? { kind: "put", path: change.path, file: { ...change.after } }
            : { kind: "deleteFile", path: change.path },
        );
        try {
          const result = await repos.commit(repo, {
            ref: pr.targetRef ?? branchRef("main"),
            parentCommit: pending.targetHead,
            title: `${pr.title} (#${pr.num})`,
            description: "",
            author: merger,
            operations,
            merges: { num: pr.num, ...(comment ? { comment } : {}) },
          });
          return { commitOid: result.commit.oid };
        } catch (error) {
          if (!(error instanceof StaleParentError) || attempt >= 3) throw error;
        }
      }
    },
  };
}

export type PullRequests = ReturnType<typeof createPullRequests>;
