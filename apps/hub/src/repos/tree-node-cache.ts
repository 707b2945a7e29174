import type { TreeNode } from "./tree-nodes.js";

/**
 * Parsed tree nodes by (repository, node id), least recently used first out, bounded by entries held.
 * Correct across processes and replicas without invalidation: a node's id is the hash of its text, so a
 * cached node is what any database holding that id holds (even a repository key reused after a delete).
 * Why a cache: a download resolves its path through the nodes on it, and a commit reads the folders it
 * changes; both come back to the same nodes. Resolving a path in a 20,000-file folder takes ~40 µs warm
 * against ~350-500 µs reading and parsing the root, the page list and a page each time
 * (bench/repos/path-lookup.ts, bench/results/2026-11-29-repos-trust.md); a commit to that folder reads its
 * ~300 pages once, then only the changed one.
 */
export class TreeNodeCache {
  private readonly nodes = new Map<string, { node: TreeNode; weight: number }>();
  private held = 0;

  constructor(private readonly maxEntries = 100_000) {}

  get(repo: number, id: string): TreeNode | undefined {
    const key = `${repo}:${id}`;
    const hit = this.nodes.get(key);
    if (!hit) return undefined;
    // Move to the most recently used end.
    this.nodes.delete(key);
    this.nodes.set(key, hit);
    return hit.node;
  }

  set(repo: number, id: string, node: TreeNode): void {
    const key = `${repo}:${id}`;
    if (this.nodes.has(key)) return;
    const weight = 1 + (node.entries?.length ?? 0) + (node.pages?.length ?? 0);
    this.nodes.set(key, { node, weight });
    this.held += weight;
    for (const [oldest, value] of this.nodes) {
      if (this.held <= this.maxEntries) break;
      this.nodes.delete(oldest);
      this.held -= value.weight;
    }
  }
}

/** The process's cache, shared by every store (see above why sharing is correct). */
export const treeNodeCache = new TreeNodeCache();
