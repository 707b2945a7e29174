import { placeholders, type Queryable } from "../store/database.js";

/** A stored xorb chunk: its place in the serialized xorb (`[byteStart, byteEnd)`) and raw size. */
export interface XetChunkRow {
  index: number;
  hash: string;
  byteStart: number;
  byteEnd: number;
  unpackedSize: number;
}

export interface XetXorbRow {
  hash: string;
  blobSha256: string;
  size: number;
  chunkCount: number;
}

/** One term of a file reconstruction, as stored (hashes in the specification's string form). */
import type { XetFileRow, XetTermRow } from "./xet-records.js";

export type { XetFileRow, XetTermRow } from "./xet-records.js";

type FileRowShape = {
  hash: string;
  sha256: string | null;
  sha256_checked: number;
  size: number;
  terms: string;
};

/** A file's sha256 counts only once the hub hashed its reconstructed bytes: a shard's claim alone is not trusted. */
const toFile = (row: FileRowShape): XetFileRow => ({
  hash: row.hash,
  sha256: row.sha256_checked === 1 ? (row.sha256 ?? undefined) : undefined,
  size: row.size,
  terms: JSON.parse(row.terms) as XetTermRow[],
});

/** The Xet tables (see migrations.ts). Hashes are kept in their 64-hex-digit string form. */
export function createXetTable(q: Queryable, now: () => Date) {
  return {
    async xorb(hash: string): Promise<XetXorbRow | undefined> {
      const row = await q.get<{ hash: string; blob_sha256: string; size: number; chunk_count: number }>(
        "SELECT hash, blob_sha256, size, chunk_count FROM xet_xorbs WHERE hash = ?",
        [hash],
      );
      return (
        row && { hash: row.hash, blobSha256: row.blob_sha256, size: row.size, chunkCount: row.chunk_count }
      );
    },
    /** Records a verified xorb and its chunks; false when it was already there. */
    addXorb(row: XetXorbRow, chunks: readonly XetChunkRow[]): Promise<boolean> {
      return q.transaction(async (tx) => {
        const inserted = await tx.run(
          `INSERT INTO xet_xorbs (hash, blob_sha256, size, chunk_count, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          [row.hash, row.blobSha256, row.size, row.chunkCount, now().toISOString()],
        );
        if (inserted === 0) return false;
        const tuple = "(?, ?, ?, ?, ?, ?)";
        for (let at = 0; at < chunks.length; at += 200) {
          const batch = chunks.slice(at, at + 200);
          await tx.run(
            `INSERT INTO xet_chunks (xorb_hash, chunk_index, chunk_hash, byte_start, byte_end, unpacked_size)
             VALUES ${batch.map(() => tuple).join(", ")} ON CONFLICT DO NOTHING`,
            batch.flatMap((c) => [row.hash, c.index, c.hash, c.byteStart, c.byteEnd, c.unpackedSize]),
          );
        }
        return true;
      });
    },
    async chunks(xorbHash: string): Promise<XetChunkRow[]> {
      const rows = await q.all<{
        chunk_index: number;
        chunk_hash: string;
        byte_start: number;
        byte_end: number;
        unpacked_size: number;
      }>(
        `SELECT chunk_index, chunk_hash, byte_start, byte_end, unpacked_size FROM xet_chunks
         WHERE xorb_hash = ? ORDER BY chunk_index`,
        [xorbHash],
      );
      return rows.map((r) => ({
        index: r.chunk_index,
        hash: r.chunk_hash,
        byteStart: r.byte_start,
        byteEnd: r.byte_end,
        unpackedSize: r.unpacked_size,
      }));
    },
    /** A xorb holding this chunk, for global deduplication. */
    async xorbOfChunk(chunkHash: string): Promise<string | undefined> {
      const row = await q.get<{ xorb_hash: string }>(
        "SELECT xorb_hash FROM xet_chunks WHERE chunk_hash = ? LIMIT 1",
        [chunkHash],
      );
      return row?.xorb_hash;
    },
    /**
     * Every stored copy of each of these chunks (a chunk may sit in several xorbs), looked up in batches of
     * 500 (bound parameters): one query for a whole term of a mirror pull instead of one per chunk.
     */
    async chunkCopies(
      chunkHashes: readonly string[],
    ): Promise<Array<{ hash: string; xorb: string; index: number; size: number }>> {
      const unique = [...new Set(chunkHashes)];
      const out: Array<{ hash: string; xorb: string; index: number; size: number }> = [];
      for (let at = 0; at < unique.length; at += 500) {
        const batch = unique.slice(at, at + 500);
        const rows = await q.all<{
          chunk_hash: string;
          xorb_hash: string;
          chunk_index: number | string;
          unpacked_size: number | string;
        }>(
          `SELECT chunk_hash, xorb_hash, chunk_index, unpacked_size FROM xet_chunks
           WHERE chunk_hash IN (${placeholders(batch)})`,
          batch,
        );
        for (const row of rows) {
          out.push({
            hash: row.chunk_hash,
            xorb: row.xorb_hash,
            index: Number(row.chunk_index),
            size: Number(row.unpacked_size),
          });
        }
      }
      return out;
    },
    /**
     * Xorbs that files using `xorbHash` also use (that xorb first, at most `limit`): a dedup answer worth
     * more than the one xorb, since a file that shares one xorb's chunks likely shares its neighbours'.
     */
    async relatedXorbs(xorbHash: string, limit: number): Promise<string[]> {
      const out = new Set<string>([xorbHash]);
      // The terms are JSON text: a substring match on the quoted hash, the same on both databases.
      const rows = await q.all<{ terms: string }>("SELECT terms FROM xet_files WHERE terms LIKE ? LIMIT 16", [
        `%"${xorbHash}"%`,
      ]);
      for (const row of rows) {
        for (const term of JSON.parse(row.terms) as XetTermRow[]) {
          if (out.size >= limit) return [...out];
          out.add(term.xorb);
        }
      }
      return [...out];
    },
    /** Bytes of every stored xorb (what Xet storage holds on disk). */
    async totalXorbBytes(): Promise<number> {
      const row = await q.get<{ total: number | null }>("SELECT sum(size) AS total FROM xet_xorbs");
      return row?.total ?? 0;
    },
    /** Files registered before sha256s were checked (migration 18), with the sha256 their shard claimed. */
    async uncheckedFiles(limit: number): Promise<Array<{ file: XetFileRow; claimed: string | undefined }>> {
      const rows = await q.all<FileRowShape>(
        "SELECT hash, sha256, sha256_checked, size, terms FROM xet_files WHERE sha256_checked = 0 LIMIT ?",
        [limit],
      );
      return rows.map((row) => ({ file: toFile(row), claimed: row.sha256 ?? undefined }));
    },
    /** Records the sha256 the hub hashed from a file's bytes. */
    async setCheckedSha256(hash: string, sha256: string): Promise<void> {
      await q.run("UPDATE xet_files SET sha256 = ?, sha256_checked = 1 WHERE hash = ?", [sha256, hash]);
    },
    async file(hash: string): Promise<XetFileRow | undefined> {
      const row = await q.get<FileRowShape>(
        "SELECT hash, sha256, sha256_checked, size, terms FROM xet_files WHERE hash = ?",
        [hash],
      );
      return row && toFile(row);
    },
    async fileBySha256(sha256: string): Promise<XetFileRow | undefined> {
      const row = await q.get<FileRowShape>(
        "SELECT hash, sha256, sha256_checked, size, terms FROM xet_files WHERE sha256 = ? AND sha256_checked = 1 LIMIT 1",
        [sha256],
      );
      return row && toFile(row);
    },
    /** Whether a shard upload with a token of this repository registered the file. */
    async fileInRepo(hash: string, repoKey: number): Promise<boolean> {
      const row = await q.get<{ n: number }>(
        "SELECT count(*) AS n FROM xet_file_repos WHERE file_hash = ? AND repo_id = ?",
        [hash, repoKey],
      );
      return (row?.n ?? 0) > 0;
    },
    /**
     * The Xet file hash of each of these sha256s that this repository registered (through a shard), for
     * the `xetHash` of tree and paths-info entries. Looked up in batches of 500 (bound parameters).
     */
    async fileHashesOfShas(repoKey: number, sha256s: readonly string[]): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      const unique = [...new Set(sha256s)];
      for (let at = 0; at < unique.length; at += 500) {
        const batch = unique.slice(at, at + 500);
        const rows = await q.all<{ sha256: string; hash: string }>(
          `SELECT f.sha256 AS sha256, f.hash AS hash FROM xet_files f
           JOIN xet_file_repos r ON r.file_hash = f.hash
           WHERE r.repo_id = ? AND f.sha256_checked = 1 AND f.sha256 IN (${placeholders(batch)})`,
          [repoKey, ...batch],
        );
        for (const row of rows) if (!found.has(row.sha256)) found.set(row.sha256, row.hash);
      }
      return found;
    },
    /** The file hash of the content with this sha256 that this repository registered, if any. */
    async fileOfShaInRepo(sha256: string, repoKey: number): Promise<string | undefined> {
      const row = await q.get<{ hash: string }>(
        `SELECT f.hash FROM xet_files f JOIN xet_file_repos r ON r.file_hash = f.hash
         WHERE f.sha256 = ? AND f.sha256_checked = 1 AND r.repo_id = ? LIMIT 1`,
        [sha256, repoKey],
      );
      return row?.hash;
    },
  };
}

export type XetTable = ReturnType<typeof createXetTable>;
