import type { Queryable } from "../store/database.js";

/**
 * The parts of multipart LFS uploads as they arrive (migration 18): which blobs a repository's upload of one
 * object received as each part. A completion assembles only these, never a blob named by its sha256 alone.
 * A part row also keeps its blob from garbage collection until the upload completes or is abandoned.
 */
export function createUploadPartsTable(q: Queryable) {
  return {
    async record(repoKey: number, oid: string, part: number, sha256: string, now: string): Promise<void> {
      await q.run(
        `INSERT INTO lfs_upload_parts (repo_id, oid, part, sha256, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (repo_id, oid, part, sha256) DO UPDATE SET created_at = excluded.created_at`,
        [repoKey, oid, part, sha256, now],
      );
    },
    /** Whether this upload's part URL `part` received the blob `sha256` (a retried part may have several). */
    async received(repoKey: number, oid: string, part: number, sha256: string): Promise<boolean> {
      const row = await q.get<{ n: number }>(
        "SELECT 1 AS n FROM lfs_upload_parts WHERE repo_id = ? AND oid = ? AND part = ? AND sha256 = ?",
        [repoKey, oid, part, sha256],
      );
      return row !== undefined;
    },
    /** Forgets a completed upload's parts. */
    async forget(repoKey: number, oid: string): Promise<void> {
      await q.run("DELETE FROM lfs_upload_parts WHERE repo_id = ? AND oid = ?", [repoKey, oid]);
    },
  };
}

export type UploadPartsTable = ReturnType<typeof createUploadPartsTable>;
