import {
  ConflictError,
  EntryNotFoundError,
  InvalidInputError,
  RevisionNotFoundError,
  StaleParentError,
} from "../errors.js";
import { type CommitRecord, type FileRecord, type RepoRecord, repoLock } from "../store/repos-table.js";
import type { Store, StoreTables } from "../store/store.js";
import { buildTreeIds, gitCommitId } from "./git-objects.js";
import { assertNoPathTwins } from "./path-collisions.js";
import { branchRef, prRef } from "./revision.js";

/** One change of a commit, its content already in the blob store (puts) or known to the hub (LFS refs). */
export type CommitOperation =
  | {
      kind: "put";
      path: string;
      file: Omit<FileRecord, "path">;
      /**
       * The content is an LFS upload attached to the repository: checked again in the transaction, since blob
       * GC prunes uploads abandoned for longer than its grace period.
       */
      uploaded?: boolean;
    }
  | { kind: "deleteFile"; path: string }
  | { kind: "deleteFolder"; path: string };

export interface CommitRequest {
  /** `refs/heads/<branch>` or `refs/pr/<n>`. */
  ref: string;
  /** The head the caller built on; when given and no longer the head: 409. */
  parentCommit?: string;
  title: string;
  description: string;
  author: string;
  operations: readonly CommitOperation[];
  /** Open a pull request: commit to a new `refs/pr/<n>` started at `ref`'s head. */
  createPr?: boolean;
  /** This commit merges pull request `num` into `ref`: it is marked merged in the same transaction. */
  merges?: { num: number; comment?: string };
  now: Date;
}

export interface CommitResult {
  commit: CommitRecord;
  ref: string;
  pullRequest?: number;
}

/** N of a `refs/pr/N` ref. */
export function pullRequestNumber(ref: string): number | undefined {
  const match = /^refs\/pr\/(\d+)$/.exec(ref);
  return match ? Number(match[1]) : undefined;
}

export { repoLock };

export function authorEmail(author: string): string {
  return `${author}@users.noreply.modelhub`;
}

/**
 * The commit engine. Everything slow (receiving bytes, writing blobs) happens before; this runs as one write
 * transaction that only talks to the database: read the branch head, apply the operations to its snapshot, hash the trees
 * and the commit as git does, write the commit, its snapshot and the moved ref. A crash before the transaction
 * commits leaves the branch where it was; after, at a commit whose files all exist. Two commits to one
 * repository (from any process or replica) serialize on the repository's lock (SQLite's write lock;
 * PostgreSQL's advisory lock), and each sees the other's result.
 */
export function applyCommit(store: Store, repo: RepoRecord, request: CommitRequest): Promise<CommitResult> {
  return store.writeTransaction(async (tx) => {
    await tx.lock(repoLock(repo.key));
    const repos = tx.repos;
    const head = await repos.ref(repo.key, request.ref);
    if (!head) throw new RevisionNotFoundError(request.ref.replace(/^refs\/heads\//, ""));
    const prNum = pullRequestNumber(request.ref);
    if (prNum !== undefined) {
      const pr = await tx.discussions.inCommit.get(repo.key, prNum);
      if (pr?.status === "merged") throw new ConflictError(`Pull request #${prNum} is already merged.`);
    }
    if (request.parentCommit && request.parentCommit !== head) {
      throw new StaleParentError(request.parentCommit, head);
    }
    for (const operation of request.operations) {
      if (operation.kind !== "put" || !operation.uploaded) continue;
      const { sha256 } = operation.file;
      if (!(await repos.lfsObject(repo.key, sha256)) && !(await repos.repoHoldsContent(repo.key, sha256))) {
        throw new InvalidInputError(
          `The LFS object of ${operation.path} (sha256:${sha256}) is no longer uploaded: upload it again.`,
        );
      }
    }
    const snapshot = new Map((await repos.files(repo.key, head)).map((file) => [file.path, file]));
    for (const operation of request.operations) applyOperation(snapshot, operation);
    assertNoPathTwins(snapshot.keys(), request.operations);

    const trees = buildTreeIds(new Map([...snapshot].map(([path, file]) => [path, file.blobOid])));
    const message = request.description.trim()
      ? `${request.title}\n\n${request.description.trim()}`
      : request.title;
    const time = Math.floor(request.now.getTime() / 1000);
    const commit: CommitRecord = {
      oid: gitCommitId({
        tree: trees.get("")!,
        parents: [head],
        author: { name: request.author, email: authorEmail(request.author) },
        time,
        message,
      }),
      tree: trees.get("")!,
      parents: [head],
      author: request.author,
      title: request.title,
      message: request.description.trim(),
      createdAt: new Date(time * 1000).toISOString(),
    };
    await repos.insertCommit(repo.key, commit);
    await repos.insertSnapshot(repo.key, commit.oid, snapshot.values(), trees);

    let ref = request.ref;
    let pullRequest: number | undefined;
    const discussions = tx.discussions.inCommit;
    if (request.createPr) {
      pullRequest = await discussions.openPullRequest({
        repoKey: repo.key,
        title: request.title,
        author: request.author,
        description: request.description,
        targetRef: request.ref,
        baseOid: head,
        now: commit.createdAt,
      });
      ref = prRef(pullRequest);
    } else if (prNum !== undefined) {
      await discussions.pullRequestCommitted(repo.key, prNum);
    }
    if (request.merges) {
      const merged = await discussions.markMerged(repo.key, request.merges.num, {
        commitOid: commit.oid,
        author: request.author,
        comment: request.merges.comment,
        // The merge's events come after everything before it (a commit's own time is only to the second).
        now: request.now.toISOString(),
      });
      if (!merged) throw new ConflictError(`Pull request #${request.merges.num} is not open.`);
    }
    await repos.setRef(repo.key, ref, commit.oid);
    if (ref === branchRef("main") || ref.startsWith("refs/heads/")) {
      const now = request.now.toISOString();
      await repos.touch(repo.key, now);
      await repos.syncModelRow({ ...repo, lastModified: now });
    }
    return { commit, ref, pullRequest };
  });
}

function applyOperation(snapshot: Map<string, FileRecord>, operation: CommitOperation): void {
  const { path } = operation;
  switch (operation.kind) {
    case "put": {
      const prefix = `${path}/`;
      for (const existing of snapshot.keys()) {
        if (existing.startsWith(prefix)) {
          throw new ConflictError(`Cannot write the file ${path}: a folder of that name exists.`);
        }
      }
      for (let cut = path.indexOf("/"); cut >= 0; cut = path.indexOf("/", cut + 1)) {
        if (snapshot.has(path.slice(0, cut))) {
          throw new ConflictError(`Cannot write ${path}: ${path.slice(0, cut)} is a file.`);
        }
      }
      snapshot.set(path, { path, ...operation.file });
      return;
    }
    case "deleteFile":
      if (!snapshot.delete(path)) throw new EntryNotFoundError(path);
      return;
    case "deleteFolder": {
      const prefix = `${path}/`;
      let removed = 0;
      for (const existing of [...snapshot.keys()]) {
        if (existing.startsWith(prefix)) {
          snapshot.delete(existing);
          removed++;
        }
      }
      if (removed === 0) throw new EntryNotFoundError(path);
      return;
    }
    default:
      throw new InvalidInputError("Unknown commit operation.");
  }
}

/** The first commit of a new repository: its initial files on a new `main`. */
export async function initialCommit(
  tables: StoreTables,
  repo: RepoRecord,
  files: readonly FileRecord[],
  author: string,
  now: Date,
  options: { title?: string } = {},
): Promise<CommitRecord> {
  const trees = buildTreeIds(new Map(files.map((file) => [file.path, file.blobOid])));
  const time = Math.floor(now.getTime() / 1000);
  const title = options.title ?? "initial commit";
  const commit: CommitRecord = {
    oid: gitCommitId({
      tree: trees.get("")!,
      parents: [],
      author: { name: author, email: authorEmail(author) },
      time,
      message: title,
    }),
    tree: trees.get("")!,
    parents: [],
    author,
    title,
    message: "",
    createdAt: new Date(time * 1000).toISOString(),
  };
  await tables.repos.insertCommit(repo.key, commit);
  await tables.repos.insertSnapshot(repo.key, commit.oid, files, trees);
  await tables.repos.setRef(repo.key, branchRef("main"), commit.oid);
  return commit;
}
