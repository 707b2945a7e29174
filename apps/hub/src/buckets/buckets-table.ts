import { placeholders, type Queryable } from "../store/database.js";

/** A bucket's row. `id` is `owner/name`; `key` its number (what its Xet tokens carry). */
export interface BucketRecord {
  key: number;
  id: string;
  owner: string;
  private: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A file of a bucket: a path and the Xet file stored at it. */
export interface BucketFile {
  path: string;
  xetHash: string;
  size: number;
  uploadedAt: string;
}

interface BucketRow {
  id: number;
  name: string;
  owner: string;
  private: number | boolean;
  created_at: string;
  updated_at: string;
}

const bucketFromRow = (row: BucketRow): BucketRecord => ({
  key: Number(row.id),
  id: row.name,
  owner: row.owner,
  private: Number(row.private) === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

interface FileRow {
  path: string;
  xet_hash: string;
  size: number | string;
  uploaded_at: string;
}

const fileFromRow = (row: FileRow): BucketFile => ({
  path: row.path,
  xetHash: row.xet_hash,
  size: Number(row.size),
  uploadedAt: row.uploaded_at,
});

/** SQL over buckets, their files and their uploads (migration 46: buckets-migration.ts). */
export function createBucketsTable(q: Queryable) {
  return {
    async get(id: string): Promise<BucketRecord | undefined> {
      const row = await q.get<BucketRow>("SELECT * FROM buckets WHERE name = ?", [id]);
      return row ? bucketFromRow(row) : undefined;
    },
    async byKey(key: number): Promise<BucketRecord | undefined> {
      const row = await q.get<BucketRow>("SELECT * FROM buckets WHERE id = ?", [key]);
      return row ? bucketFromRow(row) : undefined;
    },
    /** Inserts a bucket; undefined when one of that id exists already. */
    async insert(bucket: {
      id: string;
      owner: string;
      private: boolean;
      now: string;
    }): Promise<BucketRecord | undefined> {
      const row = await q.get<BucketRow>(
        `INSERT INTO buckets (name, owner, private, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (name) DO NOTHING RETURNING *`,
        [bucket.id, bucket.owner, bucket.private ? 1 : 0, bucket.now, bucket.now],
      );
      return row ? bucketFromRow(row) : undefined;
    },
    async delete(key: number): Promise<void> {
      await q.run("DELETE FROM buckets WHERE id = ?", [key]);
    },
    async touch(key: number, now: string): Promise<void> {
      await q.run("UPDATE buckets SET updated_at = ? WHERE id = ?", [now, key]);
    },
    /** Every file of a bucket under `prefix` (a folder path with its trailing `/`, or "" for all), by path. */
    async files(key: number, prefix: string): Promise<BucketFile[]> {
      const rows = prefix
        ? await q.all<FileRow>(
            "SELECT path, xet_hash, size, uploaded_at FROM bucket_files WHERE bucket_id = ? AND substr(path, 1, ?) = ? ORDER BY path",
            [key, prefix.length, prefix],
          )
        : await q.all<FileRow>(
            "SELECT path, xet_hash, size, uploaded_at FROM bucket_files WHERE bucket_id = ? ORDER BY path",
            [key],
          );
      return rows.map(fileFromRow);
    },
    async filesAt(key: number, paths: readonly string[]): Promise<BucketFile[]> {
      if (paths.length === 0) return [];
      const rows = await q.all<FileRow>(
        `SELECT path, xet_hash, size, uploaded_at FROM bucket_files WHERE bucket_id = ? AND path IN (${placeholders(paths)})`,
        [key, ...paths],
      );
      return rows.map(fileFromRow);
    },
    /** Whether the bucket has a file whose content is this Xet file. */
    async holds(key: number, xetHash: string): Promise<boolean> {
      const row = await q.get<{ n: number }>(
        "SELECT 1 AS n FROM bucket_files WHERE bucket_id = ? AND xet_hash = ? LIMIT 1",
        [key, xetHash],
      );
      return row !== undefined;
    },
    /** Puts a file at a path (replacing what was there). */
    async putFile(key: number, file: BucketFile): Promise<void> {
      await q.run(
        `INSERT INTO bucket_files (bucket_id, path, xet_hash, size, uploaded_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (bucket_id, path) DO UPDATE SET xet_hash = excluded.xet_hash, size = excluded.size,
           uploaded_at = excluded.uploaded_at`,
        [key, file.path, file.xetHash, file.size, file.uploadedAt],
      );
    },
    /** Removes the file at a path; whether there was one. */
    async deleteFile(key: number, path: string): Promise<boolean> {
      return (await q.run("DELETE FROM bucket_files WHERE bucket_id = ? AND path = ?", [key, path])) > 0;
    },
    /** Records Xet files uploaded with the bucket's write token. */
    async addUploads(key: number, xetHashes: readonly string[], now: string): Promise<void> {
      for (const hash of new Set(xetHashes)) {
        await q.run(
          "INSERT INTO bucket_uploads (bucket_id, xet_hash, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
          [key, hash, now],
        );
      }
    },
    async uploaded(key: number, xetHash: string): Promise<boolean> {
      const row = await q.get<{ n: number }>(
        "SELECT 1 AS n FROM bucket_uploads WHERE bucket_id = ? AND xet_hash = ?",
        [key, xetHash],
      );
      return row !== undefined;
    },
  };
}

export type BucketsTable = ReturnType<typeof createBucketsTable>;
