import { randomBytes } from "node:crypto";
import type Database from "better-sqlite3";

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

interface DiscussionRow {
  repo_id: number;
  num: number;
  is_pull_request: number;
  title: string;
  author: string;
  status: DiscussionStatus;
  target_ref: string | null;
  base_oid: string | null;
  merge_commit_oid: string | null;
  created_at: string;
  num_comments: number;
}

interface EventRow {
  id: string;
  type: DiscussionEventType;
  author: string;
  created_at: string;
  body: string;
  previous: string | null;
  hidden: number;
  edits: string;
}

const discussionFromRow = (row: DiscussionRow): DiscussionRecord => ({
  repoKey: row.repo_id,
  num: row.num,
  isPullRequest: row.is_pull_request === 1,
  title: row.title,
  author: row.author,
  status: row.status,
  ...(row.target_ref ? { targetRef: row.target_ref } : {}),
  ...(row.base_oid ? { baseOid: row.base_oid } : {}),
  ...(row.merge_commit_oid ? { mergeCommitOid: row.merge_commit_oid } : {}),
  createdAt: row.created_at,
  numComments: row.num_comments,
});

const eventFromRow = (row: EventRow): DiscussionEventRecord => ({
  id: row.id,
  type: row.type,
  author: row.author,
  createdAt: row.created_at,
  body: row.body,
  ...(row.previous !== null ? { previous: row.previous } : {}),
  hidden: row.hidden === 1,
  edits: JSON.parse(row.edits) as CommentEdit[],
});

const PROCESS_PART = randomBytes(5).toString("hex");
let counter = randomBytes(3).readUIntBE(0, 3);

/**
 * A 24-hex event id shaped like the public hub's (MongoDB ObjectIds): seconds, a per-process part and a
 * counter, so that events written in one transaction keep their order among equal timestamps.
 */
export function newEventId(now = Date.now()): string {
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, "0");
  return `${seconds}${PROCESS_PART}${counter.toString(16).padStart(6, "0")}`;
}

export interface DiscussionFilter {
  isPullRequest?: boolean;
  /** `open` includes drafts; `closed` includes merged pull requests. */
  status?: "open" | "closed";
  author?: string;
  /** Words the title must contain (case-insensitive). */
  search?: string;
}

export interface NewDiscussion {
  repoKey: number;
  isPullRequest: boolean;
  title: string;
  author: string;
  /** The first comment ("" for none). */
  description: string;
  targetRef?: string;
  baseOid?: string;
  now: string;
}

export interface NewEvent {
  type: DiscussionEventType;
  author: string;
  body: string;
  previous?: string;
  now: string;
}

const SELECT_DISCUSSION = `SELECT d.*, (SELECT count(*) FROM discussion_events e
    WHERE e.repo_id = d.repo_id AND e.num = d.num AND e.type = 'comment') AS num_comments
  FROM discussions d`;

/**
 * Discussions and pull requests, and their events. Asynchronous (the store rule: a PostgreSQL store can take
 * its place); each method is one transaction. `inCommit` holds the writes the commit engine makes inside its
 * own synchronous commit transaction (opening a pull request with its first commit, marking one merged), so
 * that a commit and what it means for a pull request land together.
 */
export function createDiscussionsTable(db: Database.Database) {
  const nextNum = db.prepare<[number], { n: number }>(
    "SELECT coalesce(max(num), 0) + 1 AS n FROM discussions WHERE repo_id = ?",
  );
  const insertDiscussion = db.prepare(
    `INSERT INTO discussions (repo_id, num, is_pull_request, title, author, status, target_ref, base_oid, created_at)
     VALUES (@repo, @num, @isPullRequest, @title, @author, @status, @targetRef, @baseOid, @createdAt)`,
  );
  const insertEvent = db.prepare(
    `INSERT INTO discussion_events (id, repo_id, num, type, author, created_at, body, previous)
     VALUES (@id, @repo, @num, @type, @author, @createdAt, @body, @previous)`,
  );
  const byNum = db.prepare<[number, number], DiscussionRow>(
    `${SELECT_DISCUSSION} WHERE d.repo_id = ? AND d.num = ?`,
  );
  const eventsOf = db.prepare<[number, number], EventRow>(
    "SELECT * FROM discussion_events WHERE repo_id = ? AND num = ? ORDER BY created_at, id",
  );
  const eventById = db.prepare<[number, number, string], EventRow>(
    "SELECT * FROM discussion_events WHERE repo_id = ? AND num = ? AND id = ?",
  );
  const setStatus = db.prepare<[DiscussionStatus, number, number]>(
    "UPDATE discussions SET status = ? WHERE repo_id = ? AND num = ?",
  );
  const setTitle = db.prepare<[string, number, number]>(
    "UPDATE discussions SET title = ? WHERE repo_id = ? AND num = ?",
  );
  const updateComment = db.prepare<[string, number, string, string]>(
    "UPDATE discussion_events SET body = ?, hidden = ?, edits = ? WHERE id = ?",
  );
  const setRef = db.prepare<[number, string, string]>(
    `INSERT INTO refs (repo_id, name, commit_oid) VALUES (?, ?, ?)
     ON CONFLICT (repo_id, name) DO UPDATE SET commit_oid = excluded.commit_oid`,
  );
  const markMerged = db.prepare<[string, number, number]>(
    `UPDATE discussions SET status = 'merged', merge_commit_oid = ?
     WHERE repo_id = ? AND num = ? AND is_pull_request = 1 AND status IN ('open', 'draft')`,
  );
  const markCommitted = db.prepare<[number, number]>(
    "UPDATE discussions SET status = 'open' WHERE repo_id = ? AND num = ? AND status = 'draft'",
  );

  function addEvent(repo: number, num: number, event: NewEvent): DiscussionEventRecord {
    const id = newEventId();
    insertEvent.run({
      id,
      repo,
      num,
      type: event.type,
      author: event.author,
      createdAt: event.now,
      body: event.body,
      previous: event.previous ?? null,
    });
    return eventFromRow(eventById.get(repo, num, id)!);
  }

  function open(input: NewDiscussion & { status: DiscussionStatus }): number {
    const num = nextNum.get(input.repoKey)!.n;
    insertDiscussion.run({
      repo: input.repoKey,
      num,
      isPullRequest: input.isPullRequest ? 1 : 0,
      title: input.title,
      author: input.author,
      status: input.status,
      targetRef: input.targetRef ?? null,
      baseOid: input.baseOid ?? null,
      createdAt: input.now,
    });
    if (input.description) {
      addEvent(input.repoKey, num, {
        type: "comment",
        author: input.author,
        body: input.description,
        now: input.now,
      });
    }
    return num;
  }

  const immediate = <T>(work: () => T): T => db.transaction(work).immediate();

  return {
    /**
     * Opens a discussion, or a pull request whose `refs/pr/N` starts at `baseOid` (a draft until its first
     * commit). The description is its first comment.
     */
    async open(input: NewDiscussion): Promise<DiscussionRecord> {
      return immediate(() => {
        const num = open({ ...input, status: input.isPullRequest ? "draft" : "open" });
        if (input.isPullRequest) setRef.run(input.repoKey, `refs/pr/${num}`, input.baseOid!);
        return discussionFromRow(byNum.get(input.repoKey, num)!);
      });
    },

    async get(repoKey: number, num: number): Promise<DiscussionRecord | undefined> {
      const row = byNum.get(repoKey, num);
      return row ? discussionFromRow(row) : undefined;
    },

    /** Newest first; `total` counts all matches, `closed` the closed (or merged) ones among them. */
    async list(
      repoKey: number,
      filter: DiscussionFilter,
      page: { offset: number; limit: number },
    ): Promise<{ items: DiscussionRecord[]; total: number; closed: number }> {
      const where = ["d.repo_id = ?"];
      const params: unknown[] = [repoKey];
      if (filter.isPullRequest !== undefined) {
        where.push("d.is_pull_request = ?");
        params.push(filter.isPullRequest ? 1 : 0);
      }
      if (filter.author) {
        where.push("lower(d.author) = lower(?)");
        params.push(filter.author);
      }
      for (const word of (filter.search ?? "").split(/\s+/).filter(Boolean).slice(0, 8)) {
        where.push("lower(d.title) LIKE ? ESCAPE '\\'");
        params.push(`%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      }
      const closedSql = "d.status IN ('closed', 'merged')";
      const counts = db
        .prepare<unknown[], { total: number; closed: number | null }>(
          `SELECT count(*) AS total, sum(CASE WHEN ${closedSql} THEN 1 ELSE 0 END) AS closed
           FROM discussions d WHERE ${where.join(" AND ")}`,
        )
        .get(...params)!;
      if (filter.status) where.push(filter.status === "closed" ? closedSql : `NOT (${closedSql})`);
      const matching = filter.status
        ? db
            .prepare<unknown[], { n: number }>(
              `SELECT count(*) AS n FROM discussions d WHERE ${where.join(" AND ")}`,
            )
            .get(...params)!.n
        : counts.total;
      const rows = db
        .prepare<unknown[], DiscussionRow>(
          `${SELECT_DISCUSSION} WHERE ${where.join(" AND ")} ORDER BY d.num DESC LIMIT ? OFFSET ?`,
        )
        .all(...params, page.limit, page.offset);
      return { items: rows.map(discussionFromRow), total: matching, closed: counts.closed ?? 0 };
    },

    async events(repoKey: number, num: number): Promise<DiscussionEventRecord[]> {
      return eventsOf.all(repoKey, num).map(eventFromRow);
    },

    async event(repoKey: number, num: number, id: string): Promise<DiscussionEventRecord | undefined> {
      const row = eventById.get(repoKey, num, id);
      return row ? eventFromRow(row) : undefined;
    },

    async comment(repoKey: number, num: number, author: string, body: string, now: string) {
      return immediate(() => addEvent(repoKey, num, { type: "comment", author, body, now }));
    },

    /** Changes the status (open/closed) with its event, and an optional comment posted with it. */
    async setStatus(
      repoKey: number,
      num: number,
      change: { status: "open" | "closed"; author: string; comment?: string; now: string },
    ): Promise<DiscussionEventRecord> {
      return immediate(() => {
        if (change.comment) {
          addEvent(repoKey, num, {
            type: "comment",
            author: change.author,
            body: change.comment,
            now: change.now,
          });
        }
        setStatus.run(change.status, repoKey, num);
        return addEvent(repoKey, num, {
          type: "status-change",
          author: change.author,
          body: change.status,
          now: change.now,
        });
      });
    },

    async rename(repoKey: number, num: number, change: { title: string; author: string; now: string }) {
      return immediate(() => {
        const previous = byNum.get(repoKey, num)!.title;
        setTitle.run(change.title, repoKey, num);
        return addEvent(repoKey, num, {
          type: "title-change",
          author: change.author,
          body: change.title,
          previous,
          now: change.now,
        });
      });
    },

    /** Replaces a comment's text, keeping the former one in its history. */
    async editComment(
      repoKey: number,
      num: number,
      id: string,
      edit: { body: string; author: string; now: string },
    ): Promise<DiscussionEventRecord | undefined> {
      return immediate(() => {
        const row = eventById.get(repoKey, num, id);
        if (row?.type !== "comment") return undefined;
        const current = eventFromRow(row);
        // Every version with who wrote it and when, newest first (the original joins at the first edit).
        const earlier = current.edits.length
          ? current.edits
          : [{ body: current.body, author: current.author, at: current.createdAt }];
        const edits = [{ body: edit.body, author: edit.author, at: edit.now }, ...earlier];
        updateComment.run(edit.body, 0, JSON.stringify(edits), id);
        return eventFromRow(eventById.get(repoKey, num, id)!);
      });
    },

    /** Hides a comment for good: its text and history are erased. */
    async hideComment(repoKey: number, num: number, id: string): Promise<DiscussionEventRecord | undefined> {
      return immediate(() => {
        const row = eventById.get(repoKey, num, id);
        if (row?.type !== "comment") return undefined;
        updateComment.run("", 1, "[]", id);
        return eventFromRow(eventById.get(repoKey, num, id)!);
      });
    },

    /** Writes made inside the commit engine's transaction (synchronous, like the rest of that transaction). */
    inCommit: {
      /** A pull request opened by its first commit (`create_pr=1`): open at once. */
      openPullRequest(input: {
        repoKey: number;
        title: string;
        author: string;
        description: string;
        targetRef: string;
        baseOid: string;
        now: string;
      }): number {
        return open({ ...input, isPullRequest: true, status: "open" });
      },
      /** A commit landed on `refs/pr/N`: a draft pull request becomes open. */
      pullRequestCommitted(repoKey: number, num: number): void {
        markCommitted.run(repoKey, num);
      },
      /** False when the pull request is no longer open (someone merged or closed it meanwhile). */
      markMerged(
        repoKey: number,
        num: number,
        merge: { commitOid: string; author: string; comment?: string; now: string },
      ): boolean {
        if (markMerged.run(merge.commitOid, repoKey, num).changes === 0) return false;
        if (merge.comment) {
          addEvent(repoKey, num, {
            type: "comment",
            author: merge.author,
            body: merge.comment,
            now: merge.now,
          });
        }
        addEvent(repoKey, num, {
          type: "status-change",
          author: merge.author,
          body: "merged",
          now: merge.now,
        });
        return true;
      },
      get(repoKey: number, num: number): DiscussionRecord | undefined {
        const row = byNum.get(repoKey, num);
        return row ? discussionFromRow(row) : undefined;
      },
    },
  };
}

export type DiscussionsTable = ReturnType<typeof createDiscussionsTable>;
