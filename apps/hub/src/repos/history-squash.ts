import { RevisionNotFoundError } from "../errors.js";
import type { StoreTables } from "../store/store.js";
import { authorEmail } from "./commit-engine.js";
import { gitCommitId } from "./git-objects.js";
import type { CommitRecord, RepoRecord } from "./repo-records.js";

/**
 * One root commit with the tree of `ref`'s head (huggingface_hub's super_squash_history): the files stay as
 * they are, only the history before them goes from this ref. The head's tree nodes are reused, nothing is
 * copied; older commits stay in the repository for the refs (and pull requests) that still reach them.
 * Run under the repository's lock; the caller moves the ref.
 */
export async function squashedCommit(
  tables: StoreTables,
  repo: RepoRecord,
  ref: string,
  commit: { title: string; author: string; now: Date },
): Promise<{ head: string; squashed: CommitRecord }> {
  const head = await tables.repos.ref(repo.key, ref);
  const root = head ? await tables.repos.rootOf(repo.key, head) : undefined;
  if (!head || !root) throw new RevisionNotFoundError(ref.replace(/^refs\/heads\//, ""));
  const time = Math.floor(commit.now.getTime() / 1000);
  const squashed: CommitRecord = {
    oid: gitCommitId({
      tree: root.tree,
      parents: [],
      author: { name: commit.author, email: authorEmail(commit.author) },
      time,
      message: commit.title,
    }),
    tree: root.tree,
    parents: [],
    author: commit.author,
    title: commit.title,
    message: "",
    createdAt: new Date(time * 1000).toISOString(),
  };
  await tables.repos.insertCommit(repo.key, squashed, root.node);
  return { head, squashed };
}
