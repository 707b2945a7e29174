import type { Queryable } from "../store/database.js";

/**
 * What the database says about content in the blob store, for garbage collection: which sha256 something
 * still needs (a file of any commit, an upload a repository may still commit, a Xet xorb), and the pruning of
 * bookkeeping that keeps content alive for nothing. Asynchronous (the store rule).
 */
export function createBlobReferences(q: Queryable) {
  return {
    async isReferenced(sha256: string): Promise<boolean> {
      const row = await q.get<{ n: number }>(
        `SELECT 1 AS n WHERE EXISTS (SELECT 1 FROM repo_contents WHERE sha256 = ?)
           OR EXISTS (SELECT 1 FROM lfs_objects WHERE sha256 = ?)
           OR EXISTS (SELECT 1 FROM xet_xorbs WHERE blob_sha256 = ?)
           OR EXISTS (SELECT 1 FROM lfs_upload_parts WHERE sha256 = ?)`,
        [sha256, sha256, sha256, sha256],
      );
      return row !== undefined;
    },
    /**
     * Removes the bookkeeping that alone kept content alive; returns how many rows went. (What a repository's
     * history holds, `repo_contents`, goes with the repository itself.)
     */
    async pruneUnreferenced(uploadsBefore: string): Promise<{ uploads: number }> {
      return q.transaction(async (tx) => ({
        // Uploads older than the cutoff that the repository never committed: the client gave up (or the
        // commit was refused). A repository that wants one later uploads it again (the batch API says so).
        uploads:
          (await tx.run(
            `DELETE FROM lfs_objects WHERE created_at < ? AND NOT EXISTS (
             SELECT 1 FROM repo_contents c WHERE c.repo_id = lfs_objects.repo_id AND c.sha256 = lfs_objects.sha256)`,
            [uploadsBefore],
          )) +
          // Parts of multipart uploads abandoned before the cutoff (a completed upload forgets its own).
          (await tx.run("DELETE FROM lfs_upload_parts WHERE created_at < ?", [uploadsBefore])),
      }));
    },
  };
}

export type BlobReferences = ReturnType<typeof createBlobReferences>;
