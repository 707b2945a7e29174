import type { Queryable } from "./database.js";

/**
 * What the database says about content in the blob store, for garbage collection: which sha256 something
 * still needs (a file of any commit, an upload a repository may still commit, a Xet xorb), and the pruning of
 * bookkeeping that keeps content alive for nothing. Asynchronous (the store rule).
 */
export function createBlobReferences(q: Queryable) {
  return {
    async isReferenced(sha256: string): Promise<boolean> {
      const row = await q.get<{ n: number }>(
        `SELECT 1 AS n WHERE EXISTS (SELECT 1 FROM git_blobs b JOIN commit_files f ON f.blob_oid = b.oid WHERE b.sha256 = ?)
           OR EXISTS (SELECT 1 FROM lfs_objects WHERE sha256 = ?)
           OR EXISTS (SELECT 1 FROM xet_xorbs WHERE blob_sha256 = ?)
           OR EXISTS (SELECT 1 FROM lfs_upload_parts WHERE sha256 = ?)`,
        [sha256, sha256, sha256, sha256],
      );
      return row !== undefined;
    },
    /** Removes the bookkeeping that alone kept content alive; returns how many rows went. */
    async pruneUnreferenced(uploadsBefore: string): Promise<{ uploads: number; gitBlobs: number }> {
      return q.transaction(async (tx) => ({
        // Uploads older than the cutoff that the repository never committed: the client gave up (or the
        // commit was refused). A repository that wants one later uploads it again (the batch API says so).
        uploads:
          (await tx.run(
            `DELETE FROM lfs_objects WHERE created_at < ? AND NOT EXISTS (
             SELECT 1 FROM commit_files f JOIN git_blobs b ON b.oid = f.blob_oid
             WHERE f.repo_id = lfs_objects.repo_id AND b.sha256 = lfs_objects.sha256)`,
            [uploadsBefore],
          )) +
          // Parts of multipart uploads abandoned before the cutoff (a completed upload forgets its own).
          (await tx.run("DELETE FROM lfs_upload_parts WHERE created_at < ?", [uploadsBefore])),
        // Git blob ids no commit holds any more (their repository was deleted); a later commit re-creates them.
        gitBlobs: await tx.run(
          "DELETE FROM git_blobs WHERE NOT EXISTS (SELECT 1 FROM commit_files f WHERE f.blob_oid = git_blobs.oid)",
        ),
      }));
    },
  };
}

export type BlobReferences = ReturnType<typeof createBlobReferences>;
