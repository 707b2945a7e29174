/**
 * Repositories' storage sums (`usedStorage`: the bytes of distinct content their whole history holds, a query
 * over every content), computed once and kept until the content index changes (issue 42: repository info
 * recomputed it on every request).
 *
 * Kept right two ways, both needed:
 * - Each sum is kept under a version read with the repository's row on the request: its `lastModified`,
 *   which every branch commit, branch push and mirror import moves in the transaction that changes the
 *   contents. A commit to a branch through any process or replica is seen by the next request, no message
 *   needed.
 * - What changes the contents without moving `lastModified` (a pull-request commit, a permanent LFS
 *   deletion) is announced after its transaction commits (the store's `onRepoContentsChanged`): this
 *   process forgets the sum at once and tells the other replicas on REPO_CONTENTS_CHANGED (PostgreSQL
 *   NOTIFY), which forget theirs when it arrives.
 * A sum computed while the contents changed is not kept: `forget()` moves the repository's generation, and a
 * computation that began under an older one answers without keeping its result.
 */
export const REPO_CONTENTS_CHANGED = "modelhub_repo_contents_changed";

/** Sums kept at most (a few dozen bytes each): past it the oldest go first. */
const MAX_SUMS = 10_000;

export class StorageSums {
  private readonly sums = new Map<number, { version: string; generation: number; bytes: number }>();
  private readonly generations = new Map<number, number>();

  constructor(private readonly maxSums = MAX_SUMS) {}

  /** The kept sum of repository `key` at `version`, else `compute()`'s, kept unless the contents changed meanwhile. */
  async read(key: number, version: string, compute: () => Promise<number>): Promise<number> {
    const generation = this.generations.get(key) ?? 0;
    const kept = this.sums.get(key);
    if (kept && kept.version === version && kept.generation === generation) return kept.bytes;
    const bytes = await compute();
    if ((this.generations.get(key) ?? 0) === generation) {
      this.sums.delete(key);
      this.sums.set(key, { version, generation, bytes });
      if (this.sums.size > this.maxSums) this.sums.delete(this.sums.keys().next().value!);
    }
    return bytes;
  }

  /** The contents of repository `key` changed: its kept sum, and any being computed, are stale. */
  forget(key: number): void {
    this.sums.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  get size(): number {
    return this.sums.size;
  }
}
