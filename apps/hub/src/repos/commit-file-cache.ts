import type { FileRecord } from "./repo-records.js";

/**
 * Files found at a commit, by repository key, commit id and path, the oldest out first past `maxEntries`.
 * Correct without invalidation for the reason the commit roots are (commit-root-cache.ts): a commit id
 * fixes its tree, so a path at it names the same file on every process, replica and later day. Only files
 * found are kept (a path probed for nothing takes no room). Why: `HEAD /resolve`, which every cached
 * huggingface_hub download begins with, walked the tree nodes again each time (~2 µs of its ~100 on the
 * bench's one-folder repository, more in deep folders; bench/results/2026-11-30-api-3.md).
 */
export class CommitFileCache {
  private readonly files = new Map<string, FileRecord>();

  constructor(private readonly maxEntries = 50_000) {}

  /** A copy: the caller may change what it is given. */
  get(repo: number, commitOid: string, path: string): FileRecord | undefined {
    const file = this.files.get(`${repo}:${commitOid}:${path}`);
    return file && { ...file };
  }

  set(repo: number, commitOid: string, file: FileRecord): void {
    const key = `${repo}:${commitOid}:${file.path}`;
    if (this.files.has(key)) return;
    this.files.set(key, { ...file });
    if (this.files.size > this.maxEntries) {
      const oldest = this.files.keys().next().value;
      if (oldest !== undefined) this.files.delete(oldest);
    }
  }
}

/** The process's cache, shared by every repos table (the store's and each transaction's). */
export const commitFileCache = new CommitFileCache();
