/** Discussions and their events as the domain speaks of them (discussions-table.ts stores them). */
export type DiscussionStatus = "draft" | "open" | "closed" | "merged";
export type DiscussionEventType = "comment" | "status-change" | "title-change";

/** A discussion or pull request of a repository (one numbering for both, as on the public hub). */
export interface DiscussionRecord {
  repoKey: number;
  num: number;
  isPullRequest: boolean;
  title: string;
  /** User name of who opened it. */
  author: string;
  status: DiscussionStatus;
  /** Pull requests: the ref it merges into (`refs/heads/main`). */
  targetRef?: string;
  /** Pull requests: the target's head when it was opened (the base of its diff). */
  baseOid?: string;
  mergeCommitOid?: string;
  createdAt: string;
  numComments: number;
}

/** One version of a comment. */
export interface CommentEdit {
  body: string;
  author: string;
  at: string;
}

export interface DiscussionEventRecord {
  /** 24 hex digits, as the public hub's event ids. */
  id: string;
  type: DiscussionEventType;
  author: string;
  createdAt: string;
  /** A comment's text, the new status, or the new title. */
  body: string;
  /** A title change's former title. */
  previous?: string;
  hidden: boolean;
  /** Every version of an edited comment (the current one first); empty when never edited. */
  edits: CommentEdit[];
}
