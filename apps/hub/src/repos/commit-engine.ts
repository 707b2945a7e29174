import { ConflictError, InvalidInputError, RevisionNotFoundError, StaleParentError } from "../errors.js";
import type { Store, StoreTables, StoreTransaction } from "../store/store.js";
import { gitCommitId } from "./git-objects.js";
import { assertNoPathTwins } from "./path-collisions.js";
import { type CommitRecord, type FileRecord, type RepoRecord, repoLock } from "./repos-table.js";
import { branchRef, prRef } from "./revision.js";
import { draftOfFiles, type SealedNode, sealDraft } from "./tree-draft.js";
import { gitTreeIdOf, TreeEditor } from "./tree-edit.js";

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
  /**
   * Runs in the commit's transaction once it is written (webhooks' events): `parent` is the ref's former head
   * (null when the commit created the ref: a git push of a new branch).
   */
  inTransaction?: (tx: StoreTransaction, result: CommitResult & { parent: string | null }) => Promise<void>;
  /** A commit made with git and pushed (git/git-push.ts): recorded under git's id, see GitCommitFacts. */
  gitCommit?: GitCommitFacts;
}

/**
 * What git says of a pushed commit. The operations are applied to its parent's tree (none: an empty tree),
 * not to the ref's head, and the tree they make must be git's, so that the commit git hashed is the one the
 * hub records; the ref must still be at `expectedHead` (null: not exist), which is what the pusher saw. The
 * parent being another commit than the head is a forced push (the pusher rewrote the branch).
 */
export interface GitCommitFacts {
  oid: string;
  tree: string;
  /** At most one: merge commits are not taken (git-push.ts says so). */
  parents: string[];
  /** The committer's time. */
  createdAt: string;
  expectedHead: string | null;
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
 * transaction that only talks to the database: read the branch head, apply the operations path by path to its
 * tree (tree-edit.ts: only the folders on changed paths are read), hash the changed folders and the commit as
 * git does, write the new tree nodes, the commit and the moved ref. A crash before the transaction
 * commits leaves the branch where it was; after, at a commit whose files all exist. Two commits to one
 * repository (from any process or replica) serialize on the repository's lock (SQLite's write lock;
 * PostgreSQL's advisory lock), and each sees the other's result.
 */
export function applyCommit(store: Store, repo: RepoRecord, request: CommitRequest): Promise<CommitResult> {
  return store.writeTransaction(async (tx) => {
    await tx.lock(repoLock(repo.key));
    const repos = tx.repos;
    const head = await repos.ref(repo.key, request.ref);
    const git = request.gitCommit;
    if (git) {
      if ((head ?? null) !== git.expectedHead) {
        throw new ConflictError(
          `${request.ref} moved while you pushed (it is at ${head ?? "nothing"} now): fetch, then push again.`,
        );
      }
    } else if (!head) throw new RevisionNotFoundError(request.ref.replace(/^refs\/heads\//, ""));
    const prNum = pullRequestNumber(request.ref);
    if (prNum !== undefined) {
      const pr = await tx.discussions.inCommit.get(repo.key, prNum);
      if (pr?.status === "merged") throw new ConflictError(`Pull request #${prNum} is already merged.`);
    }
    if (request.parentCommit && request.parentCommit !== head) {
      throw new StaleParentError(request.parentCommit, head ?? "nothing");
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
    const base = git ? git.parents[0] : head;
    const editor = await TreeEditor.open(
      repos.treeNodes,
      repo.key,
      base ? await repos.rootOf(repo.key, base) : undefined,
    );
    for (const operation of request.operations) await applyOperation(editor, operation);
    const written = request.operations.flatMap((operation) =>
      operation.kind === "put" ? [operation.path] : [],
    );
    assertNoPathTwins(await editor.entriesAround(written), request.operations);
    const sealed = editor.seal();

    const message = request.description.trim()
      ? `${request.title}\n\n${request.description.trim()}`
      : request.title;
    const time = Math.floor(request.now.getTime() / 1000);
    if (git && sealed.root.tree !== git.tree) {
      throw new InvalidInputError(
        `Commit ${git.oid} makes tree ${sealed.root.tree} here, not git's ${git.tree}: only regular files (mode 100644) and folders can be pushed.`,
      );
    }
    const commit: CommitRecord = git
      ? {
          oid: git.oid,
          tree: git.tree,
          parents: git.parents,
          author: request.author,
          title: request.title,
          message: request.description.trim(),
          createdAt: git.createdAt,
        }
      : {
          oid: gitCommitId({
            tree: sealed.root.tree,
            parents: [head!],
            author: { name: request.author, email: authorEmail(request.author) },
            time,
            message,
          }),
          tree: sealed.root.tree,
          parents: [head!],
          author: request.author,
          title: request.title,
          message: request.description.trim(),
          createdAt: new Date(time * 1000).toISOString(),
        };
    await repos.writeTree(repo.key, sealed.nodes);
    await repos.recordContents(repo.key, puts(request.operations));
    await repos.insertCommit(repo.key, commit, sealed.root.node);

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
        baseOid: head!,
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
    await request.inTransaction?.(tx, { commit, ref, pullRequest, parent: head ?? null });
    return { commit, ref, pullRequest };
  });
}

async function applyOperation(editor: TreeEditor, operation: CommitOperation): Promise<void> {
  switch (operation.kind) {
    case "put":
      return editor.put(operation.path, operation.file);
    case "deleteFile":
      return editor.deleteFile(operation.path);
    case "deleteFolder":
      return editor.deleteFolder(operation.path);
    default:
      throw new InvalidInputError("Unknown commit operation.");
  }
}

/** What a commit's puts hold, for the repository's content index. */
const puts = (operations: readonly CommitOperation[]) =>
  operations.flatMap((operation) => (operation.kind === "put" ? [operation.file] : []));

/**
 * The first commit of a new repository: its initial files on a new `main`. Also a root commit with no files
 * for an empty branch (`setRef: false`: the caller points its ref at it).
 */
export async function initialCommit(
  tables: StoreTables,
  repo: RepoRecord,
  files: readonly FileRecord[],
  author: string,
  now: Date,
  options: { title?: string; setRef?: boolean } = {},
): Promise<CommitRecord> {
  const sealed: SealedNode[] = [];
  const root = sealDraft(draftOfFiles(files), (_path, entries) => gitTreeIdOf(entries), sealed)!;
  const time = Math.floor(now.getTime() / 1000);
  const title = options.title ?? "initial commit";
  const commit: CommitRecord = {
    oid: gitCommitId({
      tree: root.tree,
      parents: [],
      author: { name: author, email: authorEmail(author) },
      time,
      message: title,
    }),
    tree: root.tree,
    parents: [],
    author,
    title,
    message: "",
    createdAt: new Date(time * 1000).toISOString(),
  };
  await tables.repos.writeTree(repo.key, sealed);
  await tables.repos.recordContents(repo.key, files);
  // The same empty root twice in a second (two empty branches) is one commit: recorded once.
  if (!(await tables.repos.commit(repo.key, commit.oid))) {
    await tables.repos.insertCommit(repo.key, commit, root.node);
  }
  if (options.setRef !== false) await tables.repos.setRef(repo.key, branchRef("main"), commit.oid);
  return commit;
}

/**
 * Records a commit made elsewhere (a mirrored repository's upstream commit) under its own id: its snapshot is
 * `files` (tree nodes sealed as initialCommit seals them), its metadata as given. Moves no ref. Returns the
 * git tree id computed for every folder (by path, "" the root), which the caller may check against the tree
 * ids the other hub lists. A commit already recorded is left as it is.
 */
export async function importedCommit(
  tables: StoreTables,
  repo: RepoRecord,
  files: readonly FileRecord[],
  commit: Omit<CommitRecord, "tree">,
): Promise<{ commit: CommitRecord; folderTrees: Map<string, string> }> {
  const folderTrees = new Map<string, string>();
  const sealed: SealedNode[] = [];
  const root = sealDraft(
    draftOfFiles(files),
    (path, entries) => {
      const tree = gitTreeIdOf(entries);
      folderTrees.set(path, tree);
      return tree;
    },
    sealed,
  )!;
  const record: CommitRecord = { ...commit, tree: root.tree };
  if (await tables.repos.commit(repo.key, commit.oid)) return { commit: record, folderTrees };
  await tables.repos.writeTree(repo.key, sealed);
  await tables.repos.recordContents(repo.key, files);
  await tables.repos.insertCommit(repo.key, record, root.node);
  return { commit: record, folderTrees };
}
