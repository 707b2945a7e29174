import type { FolderEntry } from "./tree-nodes.js";

/**
 * The root folder of a commit (its `root_node` and git tree), by repository key and commit id, the oldest
 * out first past `maxEntries`. A commit never changes once written, so no invalidation is needed across
 * processes or replicas: a commit without a root node yet (a snapshot not converted, snapshot-conversion.ts)
 * is never kept, and a repository key reused after a delete holds the same commit id only for the same
 * commit. Callers reach it after resolving the revision in that repository (a ref of it, or a commit of it),
 * so a commit id alone never reaches a root here. Why: every download and file read resolved its path from a
 * database read of the commit row, one of the three each `HEAD /resolve` made (bench/results/2026-11-30-serve.md).
 */
export class CommitRootCache {
  private readonly roots = new Map<string, FolderEntry>();

  constructor(private readonly maxEntries = 20_000) {}

  get(repo: number, commitOid: string): FolderEntry | undefined {
    return this.roots.get(`${repo}:${commitOid}`);
  }

  set(repo: number, commitOid: string, root: FolderEntry): void {
    const key = `${repo}:${commitOid}`;
    if (this.roots.has(key)) return;
    this.roots.set(key, root);
    if (this.roots.size > this.maxEntries) {
      const oldest = this.roots.keys().next().value;
      if (oldest !== undefined) this.roots.delete(oldest);
    }
  }
}

/** The process's cache, shared by every repos table (the store's and each transaction's). */
export const commitRootCache = new CommitRootCache();
