import { randomBytes } from "node:crypto";
import { repoLock } from "../repos/repo-records.js";
import type { Queryable, Transaction } from "../store/database.js";

import type {
  CommentEdit,
  DiscussionEventRecord,
  DiscussionEventType,
  DiscussionRecord,
  DiscussionStatus,
} from "./discussion-records.js";

export type {
  CommentEdit,
  DiscussionEventRecord,
  DiscussionEventType,
  DiscussionRecord,
  DiscussionStatus,
} from "./discussion-records.js";

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

const INSERT_EVENT = `INSERT INTO discussion_events (id, repo_id, num, type, author, created_at, body, previous)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
const EVENT_BY_ID = "SELECT * FROM discussion_events WHERE repo_id = ? AND num = ? AND id = ?";
const DISCUSSION_BY_NUM = `${SELECT_DISCUSSION} WHERE d.repo_id = ? AND d.num = ?`;
const UPDATE_COMMENT = "UPDATE discussion_events SET body = ?, hidden = ?, edits = ? WHERE id = ?";

/**
 * Discussions and pull requests, and their events. Each write method is one transaction that holds the
 * repository's lock (numbers are taken as max + 1). `inCommit` holds the writes the commit engine makes inside
 * its own commit transaction (opening a pull request with its first commit, marking one merged), so that a
 * commit and what it means for a pull request land together: call them on `tx.discussions`.
 */
export function createDiscussionsTable(q: Queryable) {
  async function addEvent(tx: Queryable, repo: number, num: number, event: NewEvent) {
    const id = newEventId();
    await tx.run(INSERT_EVENT, [
      id,
      repo,
      num,
      event.type,
      event.author,
      event.now,
      event.body,
      event.previous ?? null,
    ]);
    return eventFromRow((await tx.get<EventRow>(EVENT_BY_ID, [repo, num, id]))!);
  }

  /** A status change's events: the comment posted with it (when there is one), then the change itself. */
  async function recordStatusChange(
    tx: Queryable,
    repo: number,
    num: number,
    change: { status: DiscussionStatus; author: string; comment?: string; now: string },
  ) {
    const { author, now } = change;
    if (change.comment) await addEvent(tx, repo, num, { type: "comment", author, body: change.comment, now });
    return addEvent(tx, repo, num, { type: "status-change", author, body: change.status, now });
  }

  async function open(tx: Queryable, input: NewDiscussion & { status: DiscussionStatus }): Promise<number> {
    const num = (await tx.get<{ n: number }>(
      "SELECT coalesce(max(num), 0) + 1 AS n FROM discussions WHERE repo_id = ?",
      [input.repoKey],
    ))!.n;
    await tx.run(
      `INSERT INTO discussions (repo_id, num, is_pull_request, title, author, status, target_ref, base_oid,
         created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        input.repoKey,
        num,
        input.isPullRequest ? 1 : 0,
        input.title,
        input.author,
        input.status,
        input.targetRef ?? null,
        input.baseOid ?? null,
        input.now,
      ],
    );
    if (input.description) {
      await addEvent(tx, input.repoKey, num, {
        type: "comment",
        author: input.author,
        body: input.description,
        now: input.now,
      });
    }
    return num;
  }

  /** A write transaction holding the repository's lock (see repos-table.ts repoLock). */
  const locked = <T>(repoKey: number, work: (tx: Transaction) => Promise<T>): Promise<T> =>
    q.transaction(
      async (tx) => {
        await tx.lock(repoLock(repoKey));
        return work(tx);
      },
      { immediate: true },
    );

  const discussion = async (tx: Queryable, repoKey: number, num: number) => {
    const row = await tx.get<DiscussionRow>(DISCUSSION_BY_NUM, [repoKey, num]);
    return row ? discussionFromRow(row) : undefined;
  };

  return {
    /**
     * Opens a discussion, or a pull request whose `refs/pr/N` starts at `baseOid` (a draft until its first
     * commit). The description is its first comment.
     */
    async open(input: NewDiscussion): Promise<DiscussionRecord> {
      return locked(input.repoKey, async (tx) => {
        const num = await open(tx, { ...input, status: input.isPullRequest ? "draft" : "open" });
        if (input.isPullRequest) {
          await tx.run(
            `INSERT INTO refs (repo_id, name, commit_oid) VALUES (?, ?, ?)
             ON CONFLICT (repo_id, name) DO UPDATE SET commit_oid = excluded.commit_oid`,
            [input.repoKey, `refs/pr/${num}`, input.baseOid!],
          );
        }
        return (await discussion(tx, input.repoKey, num))!;
      });
    },

    get(repoKey: number, num: number): Promise<DiscussionRecord | undefined> {
      return discussion(q, repoKey, num);
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
      const counts = (await q.get<{ total: number; closed: number | null }>(
        `SELECT count(*) AS total, sum(CASE WHEN ${closedSql} THEN 1 ELSE 0 END) AS closed
         FROM discussions d WHERE ${where.join(" AND ")}`,
        params,
      ))!;
      if (filter.status) where.push(filter.status === "closed" ? closedSql : `NOT (${closedSql})`);
      const matching = filter.status
        ? (await q.get<{ n: number }>(
            `SELECT count(*) AS n FROM discussions d WHERE ${where.join(" AND ")}`,
            params,
          ))!.n
        : counts.total;
      const rows = await q.all<DiscussionRow>(
        `${SELECT_DISCUSSION} WHERE ${where.join(" AND ")} ORDER BY d.num DESC LIMIT ? OFFSET ?`,
        [...params, page.limit, page.offset],
      );
      return { items: rows.map(discussionFromRow), total: matching, closed: counts.closed ?? 0 };
    },

    async events(repoKey: number, num: number): Promise<DiscussionEventRecord[]> {
      const rows = await q.all<EventRow>(
        "SELECT * FROM discussion_events WHERE repo_id = ? AND num = ? ORDER BY created_at, id",
        [repoKey, num],
      );
      return rows.map(eventFromRow);
    },

    async event(repoKey: number, num: number, id: string): Promise<DiscussionEventRecord | undefined> {
      const row = await q.get<EventRow>(EVENT_BY_ID, [repoKey, num, id]);
      return row ? eventFromRow(row) : undefined;
    },

    async comment(repoKey: number, num: number, author: string, body: string, now: string) {
      return locked(repoKey, (tx) => addEvent(tx, repoKey, num, { type: "comment", author, body, now }));
    },

    /** Changes the status (open/closed) with its event, and an optional comment posted with it. */
    async setStatus(
      repoKey: number,
      num: number,
      change: { status: "open" | "closed"; author: string; comment?: string; now: string },
    ): Promise<DiscussionEventRecord> {
      return locked(repoKey, async (tx) => {
        await tx.run("UPDATE discussions SET status = ? WHERE repo_id = ? AND num = ?", [
          change.status,
          repoKey,
          num,
        ]);
        return recordStatusChange(tx, repoKey, num, change);
      });
    },

    async rename(repoKey: number, num: number, change: { title: string; author: string; now: string }) {
      return locked(repoKey, async (tx) => {
        const previous = (await discussion(tx, repoKey, num))!.title;
        await tx.run("UPDATE discussions SET title = ? WHERE repo_id = ? AND num = ?", [
          change.title,
          repoKey,
          num,
        ]);
        return addEvent(tx, repoKey, num, {
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
      return locked(repoKey, async (tx) => {
        const row = await tx.get<EventRow>(EVENT_BY_ID, [repoKey, num, id]);
        if (row?.type !== "comment") return undefined;
        const current = eventFromRow(row);
        // Every version with who wrote it and when, newest first (the original joins at the first edit).
        const earlier = current.edits.length
          ? current.edits
          : [{ body: current.body, author: current.author, at: current.createdAt }];
        const edits = [{ body: edit.body, author: edit.author, at: edit.now }, ...earlier];
        await tx.run(UPDATE_COMMENT, [edit.body, 0, JSON.stringify(edits), id]);
        return eventFromRow((await tx.get<EventRow>(EVENT_BY_ID, [repoKey, num, id]))!);
      });
    },

    /** Hides a comment for good: its text and history are erased. */
    async hideComment(repoKey: number, num: number, id: string): Promise<DiscussionEventRecord | undefined> {
      return locked(repoKey, async (tx) => {
        const row = await tx.get<EventRow>(EVENT_BY_ID, [repoKey, num, id]);
        if (row?.type !== "comment") return undefined;
        await tx.run(UPDATE_COMMENT, ["", 1, "[]", id]);
        return eventFromRow((await tx.get<EventRow>(EVENT_BY_ID, [repoKey, num, id]))!);
      });
    },

    /**
     * Writes made inside the commit engine's transaction: call them on `tx.discussions` there, so they land
     * with the commit (the commit engine already holds the repository's lock).
     */
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
      }): Promise<number> {
        return open(q, { ...input, isPullRequest: true, status: "open" });
      },
      /** A commit landed on `refs/pr/N`: a draft pull request becomes open. */
      async pullRequestCommitted(repoKey: number, num: number): Promise<void> {
        await q.run(
          "UPDATE discussions SET status = 'open' WHERE repo_id = ? AND num = ? AND status = 'draft'",
          [repoKey, num],
        );
      },
      /** False when the pull request is no longer open (someone merged or closed it meanwhile). */
      async markMerged(
        repoKey: number,
        num: number,
        merge: { commitOid: string; author: string; comment?: string; now: string },
      ): Promise<boolean> {
        const changed = await q.run(
          `UPDATE discussions SET status = 'merged', merge_commit_oid = ?
           WHERE repo_id = ? AND num = ? AND is_pull_request = 1 AND status IN ('open', 'draft')`,
          [merge.commitOid, repoKey, num],
        );
        if (changed === 0) return false;
        await recordStatusChange(q, repoKey, num, { ...merge, status: "merged" });
        return true;
      },
      get(repoKey: number, num: number): Promise<DiscussionRecord | undefined> {
        return discussion(q, repoKey, num);
      },
    },
  };
}

export type DiscussionsTable = ReturnType<typeof createDiscussionsTable>;
