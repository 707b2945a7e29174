import type { Queryable } from "../store/database.js";
import { draftOfFiles, type SealedNode, sealDraft } from "./tree-draft.js";
import { createTreeNodesTable } from "./tree-nodes-table.js";

/** A commit of the old layout names a folder it recorded no tree id for: its snapshot cannot be converted. */
export class SnapshotConversionError extends Error {
  constructor(repo: number, commit: string, folder: string) {
    super(`Commit ${commit} of repository ${repo} has no tree id for folder "${folder}".`);
    this.name = "SnapshotConversionError";
  }
}

/**
 * Migration 20: each commit's flat file list (`commit_files`, `git_blobs`) and folder tree ids
 * (`commit_trees`) become tree nodes (tree-nodes.ts) and the repository's content index, in code since node
 * ids are hashes. Commits of one repository share their unchanged folders' nodes, as new commits do. Tree ids
 * are taken as recorded, never recomputed, so every commit keeps its ids. A file keeps the sha256, size and LFS
 * flag it resolves to today (what a global `git_blobs` row said: content squatted before this migration stays
 * as it was served; nothing better is known).
 */
export async function convertSnapshotsToTreeNodes(q: Queryable): Promise<void> {
  const nodes = createTreeNodesTable(q);
  const repos = await q.all<{ repo_id: number }>("SELECT DISTINCT repo_id FROM commits ORDER BY repo_id");
  for (const { repo_id } of repos) {
    const repo = Number(repo_id);
    const stored = new Set<string>();
    const indexed = new Set<string>();
    const commits = await q.all<{ oid: string }>("SELECT oid FROM commits WHERE repo_id = ? ORDER BY oid", [
      repo,
    ]);
    for (const { oid } of commits) {
      const files = await q.all<{
        path: string;
        blob_oid: string;
        sha256: string;
        size: number;
        lfs: number;
      }>(
        `SELECT f.path, f.blob_oid, b.sha256, b.size, b.lfs FROM commit_files f JOIN git_blobs b ON b.oid = f.blob_oid
         WHERE f.repo_id = ? AND f.commit_oid = ?`,
        [repo, oid],
      );
      const trees = new Map(
        (
          await q.all<{ path: string; tree_oid: string }>(
            "SELECT path, tree_oid FROM commit_trees WHERE repo_id = ? AND commit_oid = ?",
            [repo, oid],
          )
        ).map((row) => [row.path, row.tree_oid]),
      );
      const snapshot = files.map((file) => ({
        path: file.path,
        blobOid: file.blob_oid,
        sha256: file.sha256,
        size: Number(file.size),
        lfs: Number(file.lfs) === 1,
      }));
      const sealed: SealedNode[] = [];
      const root = sealDraft(
        draftOfFiles(snapshot),
        (path) => {
          const tree = trees.get(path);
          if (tree === undefined) throw new SnapshotConversionError(repo, oid, path);
          return tree;
        },
        sealed,
      )!;
      const fresh = sealed.filter(({ node }) => !stored.has(node.id));
      for (const { node } of fresh) stored.add(node.id);
      await nodes.write(repo, fresh);
      for (const file of snapshot) {
        const key = `${file.sha256}:${file.lfs}`;
        if (indexed.has(key)) continue;
        indexed.add(key);
        await q.run(
          "INSERT INTO repo_contents (repo_id, sha256, lfs, size) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
          [repo, file.sha256, file.lfs ? 1 : 0, file.size],
        );
      }
      await q.run("UPDATE commits SET root_node = ? WHERE repo_id = ? AND oid = ?", [root.node, repo, oid]);
    }
  }
}
