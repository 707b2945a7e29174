import { InvalidInputError, NotFoundError } from "../errors.js";
import type { StoreTables, StoreTransaction } from "../store/store.js";
import { authorEmail } from "./commit-engine.js";
import { gitBlobId, gitCommitId } from "./git-objects.js";
import type { StoredCommit } from "./lfs-files-table.js";
import { lfsPointerText } from "./lfs-pointer.js";
import type { CommitRecord, RepoRecord } from "./repo-records.js";
import { TreeEditor } from "./tree-edit.js";
import { isFolderEntry } from "./tree-nodes.js";

/**
 * huggingface_hub's list_lfs_files and permanently_delete_lfs_files (docs/decisions/lfs-files.md): the LFS
 * objects a repository's history holds, and their removal from every commit that names them.
 */

/** One LFS object, in the public hub's shape (huggingface_hub's LFSFileInfo). */
export interface LfsFileView {
  /** The sha256 of the content: what a deletion names. */
  fileOid: string;
  /** A path the object has in the history (the first found, oldest commit first). */
  filename: string;
  /** The git blob id of its pointer file. */
  oid: string;
  pushedAt: string;
  /** Where it was pushed: not recorded here (the public hub leaves it null too when it does not know). */
  ref: null;
  size: number;
}

/** What a permanent deletion did, for the answer, the audit entry and the blobs to free. */
export interface LfsDeletion {
  deleted: string[];
  /** Commits rewritten, old id to new id. */
  rewritten: Map<string, string>;
  /** Refs moved to a rewritten commit. */
  movedRefs: { ref: string; oldSha: string; newSha: string }[];
}

/** Commits in an order where each comes after its parents (parents outside the list are ignored). */
function parentsFirst(commits: readonly StoredCommit[]): StoredCommit[] {
  const byOid = new Map(commits.map((commit) => [commit.oid, commit]));
  const done = new Set<string>();
  const ordered: StoredCommit[] = [];
  for (const start of commits) {
    // Iterative depth-first walk: histories are long chains, recursion would overflow the stack.
    const stack: { commit: StoredCommit; expanded: boolean }[] = [{ commit: start, expanded: false }];
    while (stack.length) {
      const top = stack.pop()!;
      if (done.has(top.commit.oid)) continue;
      if (top.expanded) {
        done.add(top.commit.oid);
        ordered.push(top.commit);
        continue;
      }
      stack.push({ commit: top.commit, expanded: true });
      for (const parent of top.commit.parents) {
        const found = byOid.get(parent);
        if (found && !done.has(parent)) stack.push({ commit: found, expanded: false });
      }
    }
  }
  return ordered;
}

/**
 * Walks snapshots node by node, each node once however many commits share it (tree-nodes.md), and reports
 * the LFS files under it whose content `wanted` accepts, with their paths relative to the node.
 */
function lfsFileFinder(tables: StoreTables, repo: number, wanted: (sha256: string) => boolean) {
  const memo = new Map<string, { path: string; sha256: string }[]>();
  async function under(node: string): Promise<{ path: string; sha256: string }[]> {
    const known = memo.get(node);
    if (known) return known;
    const found: { path: string; sha256: string }[] = [];
    const read = await tables.repos.treeNodes.node(repo, node);
    for (const entry of await tables.repos.treeNodes.entriesOf(repo, read)) {
      if (isFolderEntry(entry)) {
        for (const inner of await under(entry.node)) {
          found.push({ path: `${entry.name}/${inner.path}`, sha256: inner.sha256 });
        }
      } else if (entry.lfs && wanted(entry.sha256)) {
        found.push({ path: entry.name, sha256: entry.sha256 });
      }
    }
    memo.set(node, found);
    return found;
  }
  return under;
}

/** The LFS objects the repository's history holds, newest first, each with a path it has there. */
export async function listLfsFiles(tables: StoreTables, repo: RepoRecord): Promise<LfsFileView[]> {
  const held = await tables.lfsFiles.heldObjects(repo.key);
  if (held.length === 0) return [];
  const first = new Map<string, { path: string; at: string }>();
  const seen = new Set<string>();
  // Oldest commit first: the first path found is the one the object was pushed under. A node seen already
  // holds nothing new, so each node is read once.
  const walk = async (node: string, prefix: string, at: string): Promise<void> => {
    if (seen.has(node)) return;
    seen.add(node);
    const read = await tables.repos.treeNodes.node(repo.key, node);
    for (const entry of await tables.repos.treeNodes.entriesOf(repo.key, read)) {
      const path = `${prefix}${entry.name}`;
      if (isFolderEntry(entry)) await walk(entry.node, `${path}/`, at);
      else if (entry.lfs && !first.has(entry.sha256)) first.set(entry.sha256, { path, at });
    }
  };
  for (const commit of await tables.lfsFiles.commits(repo.key)) {
    await walk(commit.rootNode, "", commit.createdAt);
    if (first.size === held.length) break;
  }
  const views = held.map((object) => {
    const found = first.get(object.sha256);
    return {
      fileOid: object.sha256,
      filename: found?.path ?? "",
      oid: gitBlobId(Buffer.from(lfsPointerText(object.sha256, object.size))),
      pushedAt: object.uploadedAt ?? found?.at ?? repo.createdAt,
      ref: null,
      size: object.size,
    };
  });
  return views.sort((a, b) =>
    a.pushedAt === b.pushedAt ? (a.fileOid < b.fileOid ? -1 : 1) : a.pushedAt < b.pushedAt ? 1 : -1,
  );
}

/**
 * Removes LFS objects from a repository for good, in the caller's transaction (which holds the repository's
 * lock). With `rewriteHistory`, every commit whose snapshot has a file of one of them is rewritten without
 * those files, and so is every commit after it (its parent changed); refs move to the rewritten commits and
 * the replaced commits are deleted. Without it, an object some commit still names is refused (its pointers
 * would lead nowhere). Then the repository forgets the objects: its content index (quota usage), its uploads,
 * its Xet registrations. Objects the repository does not hold are refused, all before anything changes.
 */
export async function deleteLfsFiles(
  tx: StoreTransaction,
  repo: RepoRecord,
  sha256s: readonly string[],
  options: { rewriteHistory: boolean },
): Promise<LfsDeletion> {
  const targets = new Set(sha256s);
  const held = new Set((await tx.lfsFiles.heldObjects(repo.key)).map((object) => object.sha256));
  const uploaded = await tx.lfsFiles.uploaded(repo.key, [...targets]);
  const unknown = [...targets].filter((sha256) => !held.has(sha256) && !uploaded.has(sha256));
  if (unknown.length > 0) {
    throw new NotFoundError(
      `${unknown.length === 1 ? "This LFS object is" : "These LFS objects are"} not in ${repo.type}s/${repo.id}: ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", ..." : ""}. List them with GET .../lfs-files.`,
    );
  }
  const deletion: LfsDeletion = { deleted: [...targets], rewritten: new Map(), movedRefs: [] };
  if (targets.size === 0) return deletion;

  const commits = await tx.lfsFiles.commits(repo.key);
  const filesUnder = lfsFileFinder(tx, repo.key, (sha256) => targets.has(sha256));
  const naming: StoredCommit[] = [];
  for (const commit of commits) if ((await filesUnder(commit.rootNode)).length > 0) naming.push(commit);
  if (naming.length > 0 && !options.rewriteHistory) {
    throw new InvalidInputError(
      `${naming.length} commit(s) of ${repo.type}s/${repo.id} still have files of these LFS objects (the first: ${naming[0]!.oid}): deleting them without rewriting the history would leave pointers to nothing. Pass "rewriteHistory": true.`,
    );
  }

  for (const commit of parentsFirst(commits)) {
    const parents = commit.parents.map((parent) => deletion.rewritten.get(parent) ?? parent);
    const paths = (await filesUnder(commit.rootNode)).map((file) => file.path);
    const parentsChanged = parents.some((parent, i) => parent !== commit.parents[i]);
    if (paths.length === 0 && !parentsChanged) continue;
    let root = { node: commit.rootNode, tree: commit.tree };
    if (paths.length > 0) {
      const editor = await TreeEditor.open(tx.repos.treeNodes, repo.key, {
        name: "",
        node: commit.rootNode,
        tree: commit.tree,
      });
      for (const path of paths) await editor.deleteFile(path);
      const sealed = editor.seal();
      await tx.repos.writeTree(repo.key, sealed.nodes);
      root = { node: sealed.root.node, tree: sealed.root.tree };
    }
    const message = commit.message ? `${commit.title}\n\n${commit.message}` : commit.title;
    const rewritten: CommitRecord = {
      oid: gitCommitId({
        tree: root.tree,
        parents,
        author: { name: commit.author, email: authorEmail(commit.author) },
        time: Math.floor(Date.parse(commit.createdAt) / 1000),
        message,
      }),
      tree: root.tree,
      parents,
      author: commit.author,
      title: commit.title,
      message: commit.message,
      createdAt: commit.createdAt,
    };
    await tx.repos.insertCommit(repo.key, rewritten, root.node);
    deletion.rewritten.set(commit.oid, rewritten.oid);
  }

  for (const { name, commitOid } of await tx.repos.refs(repo.key)) {
    const moved = deletion.rewritten.get(commitOid);
    if (!moved) continue;
    await tx.repos.setRef(repo.key, name, moved);
    deletion.movedRefs.push({ ref: name, oldSha: commitOid, newSha: moved });
  }
  const kept = new Set(deletion.rewritten.values());
  await tx.lfsFiles.deleteCommits(
    repo.key,
    [...deletion.rewritten.keys()].filter((oid) => !kept.has(oid)),
  );
  await tx.lfsFiles.forgetObjects(repo.key, deletion.deleted);
  await tx.xetGc.forgetRepoFiles(repo.key, deletion.deleted);
  return deletion;
}
