import { placeholders, type Queryable } from "../store/database.js";
import type { CommitRecord } from "./repo-records.js";

/** A commit with the root node of its snapshot, as the history rewrite reads it. */
export interface StoredCommit extends CommitRecord {
  rootNode: string;
}

/** An LFS object a repository's history holds, with when it was uploaded there (if it was). */
export interface HeldLfsObject {
  sha256: string;
  size: number;
  uploadedAt?: string;
}

/**
 * SQL behind list_lfs_files and permanently_delete_lfs_files (repos/lfs-files.ts): the LFS objects a
 * repository's history holds, all of its commits, and the removal of what a deletion rewrote away. Bound
 * parameters only; `sha256s` lists are short (one request's deletions), so they go in one IN list.
 */
export function createLfsFilesTable(
  q: Queryable,
  /** Told of each repository whose content index (`repo_contents`) a write changed (store.ts). */
  contentsChanged: (repoKey: number) => void = () => {},
) {
  return {
    /** The LFS contents of the repository's history (`repo_contents`), with their upload time when known. */
    async heldObjects(repo: number): Promise<HeldLfsObject[]> {
      const rows = await q.all<{ sha256: string; size: number | string; created_at: string | null }>(
        `SELECT c.sha256, c.size, o.created_at FROM repo_contents c
         LEFT JOIN lfs_objects o ON o.repo_id = c.repo_id AND o.sha256 = c.sha256
         WHERE c.repo_id = ? AND c.lfs = 1 ORDER BY c.sha256`,
        [repo],
      );
      return rows.map((row) => ({
        sha256: row.sha256,
        size: Number(row.size),
        ...(row.created_at ? { uploadedAt: row.created_at } : {}),
      }));
    },
    /** Which of `sha256s` were uploaded to the repository (committed or not). */
    async uploaded(repo: number, sha256s: readonly string[]): Promise<Set<string>> {
      if (sha256s.length === 0) return new Set();
      const rows = await q.all<{ sha256: string }>(
        `SELECT sha256 FROM lfs_objects WHERE repo_id = ? AND sha256 IN (${placeholders(sha256s)})`,
        [repo, ...sha256s],
      );
      return new Set(rows.map((row) => row.sha256));
    },
    /** Every commit of the repository with its snapshot's root node, oldest first. */
    async commits(repo: number): Promise<StoredCommit[]> {
      const rows = await q.all<{
        oid: string;
        tree: string;
        parents: string;
        author: string;
        title: string;
        message: string;
        created_at: string;
        root_node: string | null;
      }>(
        `SELECT oid, tree, parents, author, title, message, created_at, root_node FROM commits
         WHERE repo_id = ? ORDER BY created_at, oid`,
        [repo],
      );
      return rows.flatMap((row) =>
        row.root_node
          ? [
              {
                oid: row.oid,
                tree: row.tree,
                parents: JSON.parse(row.parents) as string[],
                author: row.author,
                title: row.title,
                message: row.message,
                createdAt: row.created_at,
                rootNode: row.root_node,
              },
            ]
          : [],
      );
    },
    /** Removes commits a rewrite replaced (their tree nodes stay: shared, immutable, and unreachable). */
    async deleteCommits(repo: number, oids: readonly string[]): Promise<void> {
      for (let at = 0; at < oids.length; at += 200) {
        const batch = oids.slice(at, at + 200);
        await q.run(`DELETE FROM commits WHERE repo_id = ? AND oid IN (${placeholders(batch)})`, [
          repo,
          ...batch,
        ]);
      }
    },
    /**
     * Forgets LFS objects of one repository: its history no longer holds them as LFS files, and they are no
     * longer uploaded there (a commit naming one again needs a new upload). Content the history holds as a
     * regular git file (`lfs = 0`) stays.
     */
    async forgetObjects(repo: number, sha256s: readonly string[]): Promise<void> {
      if (sha256s.length === 0) return;
      const list = placeholders(sha256s);
      await q.run(`DELETE FROM repo_contents WHERE repo_id = ? AND lfs = 1 AND sha256 IN (${list})`, [
        repo,
        ...sha256s,
      ]);
      await q.run(`DELETE FROM lfs_objects WHERE repo_id = ? AND sha256 IN (${list})`, [repo, ...sha256s]);
      contentsChanged(repo);
    },
  };
}

export type LfsFilesTable = ReturnType<typeof createLfsFilesTable>;
