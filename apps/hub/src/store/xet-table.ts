import type Database from "better-sqlite3";

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
export interface XetTermRow {
  xorb: string;
  start: number;
  end: number;
  size: number;
}

export interface XetFileRow {
  hash: string;
  sha256: string | undefined;
  size: number;
  terms: XetTermRow[];
}

/** The Xet tables (see migrations.ts). Hashes are kept in their 64-hex-digit string form. */
export function createXetTable(db: Database.Database, now: () => Date) {
  const xorb = db.prepare<[string], { hash: string; blob_sha256: string; size: number; chunk_count: number }>(
    "SELECT hash, blob_sha256, size, chunk_count FROM xet_xorbs WHERE hash = ?",
  );
  const insertXorb = db.prepare<[string, string, number, number, string]>(
    "INSERT OR IGNORE INTO xet_xorbs (hash, blob_sha256, size, chunk_count, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const insertChunk = db.prepare<[string, number, string, number, number, number]>(
    `INSERT OR IGNORE INTO xet_chunks (xorb_hash, chunk_index, chunk_hash, byte_start, byte_end, unpacked_size)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const chunksOf = db.prepare<
    [string],
    { chunk_index: number; chunk_hash: string; byte_start: number; byte_end: number; unpacked_size: number }
  >(
    `SELECT chunk_index, chunk_hash, byte_start, byte_end, unpacked_size FROM xet_chunks
     WHERE xorb_hash = ? ORDER BY chunk_index`,
  );
  const chunkHome = db.prepare<[string], { xorb_hash: string }>(
    "SELECT xorb_hash FROM xet_chunks WHERE chunk_hash = ? LIMIT 1",
  );
  const insertFile = db.prepare<[string, string | null, number, string, string]>(
    "INSERT OR IGNORE INTO xet_files (hash, sha256, size, terms, created_at) VALUES (?, ?, ?, ?, ?)",
  );
  const fileRow = db.prepare<[string], { hash: string; sha256: string | null; size: number; terms: string }>(
    "SELECT hash, sha256, size, terms FROM xet_files WHERE hash = ?",
  );
  const fileBySha = db.prepare<
    [string],
    { hash: string; sha256: string | null; size: number; terms: string }
  >("SELECT hash, sha256, size, terms FROM xet_files WHERE sha256 = ? LIMIT 1");
  const grant = db.prepare<[string, number]>(
    "INSERT OR IGNORE INTO xet_file_repos (file_hash, repo_id) VALUES (?, ?)",
  );
  const granted = db.prepare<[string, number], { n: number }>(
    "SELECT count(*) AS n FROM xet_file_repos WHERE file_hash = ? AND repo_id = ?",
  );
  const grantedSha = db.prepare<[string, number], { hash: string }>(
    `SELECT f.hash FROM xet_files f JOIN xet_file_repos r ON r.file_hash = f.hash
     WHERE f.sha256 = ? AND r.repo_id = ? LIMIT 1`,
  );
  const filesWithXorb = db.prepare<[string], { terms: string }>(
    "SELECT terms FROM xet_files WHERE instr(terms, ?) > 0 LIMIT 16",
  );
  const totalXorbs = db.prepare<[], { total: number | null }>("SELECT sum(size) AS total FROM xet_xorbs");
  const toFile = (row: { hash: string; sha256: string | null; size: number; terms: string }): XetFileRow => ({
    hash: row.hash,
    sha256: row.sha256 ?? undefined,
    size: row.size,
    terms: JSON.parse(row.terms) as XetTermRow[],
  });

  return {
    xorb(hash: string): XetXorbRow | undefined {
      const row = xorb.get(hash);
      return (
        row && { hash: row.hash, blobSha256: row.blob_sha256, size: row.size, chunkCount: row.chunk_count }
      );
    },
    /** Records a verified xorb and its chunks; false when it was already there. */
    addXorb(row: XetXorbRow, chunks: readonly XetChunkRow[]): boolean {
      return db.transaction(() => {
        if (
          insertXorb.run(row.hash, row.blobSha256, row.size, row.chunkCount, now().toISOString()).changes ===
          0
        ) {
          return false;
        }
        for (const c of chunks)
          insertChunk.run(row.hash, c.index, c.hash, c.byteStart, c.byteEnd, c.unpackedSize);
        return true;
      })();
    },
    chunks(xorbHash: string): XetChunkRow[] {
      return chunksOf.all(xorbHash).map((r) => ({
        index: r.chunk_index,
        hash: r.chunk_hash,
        byteStart: r.byte_start,
        byteEnd: r.byte_end,
        unpackedSize: r.unpacked_size,
      }));
    },
    /** A xorb holding this chunk, for global deduplication. */
    xorbOfChunk(chunkHash: string): string | undefined {
      return chunkHome.get(chunkHash)?.xorb_hash;
    },
    /**
     * Xorbs that files using `xorbHash` also use (that xorb first, at most `limit`): a dedup answer worth
     * more than the one xorb, since a file that shares one xorb's chunks likely shares its neighbours'.
     */
    relatedXorbs(xorbHash: string, limit: number): string[] {
      const out = new Set<string>([xorbHash]);
      for (const row of filesWithXorb.all(`"${xorbHash}"`)) {
        for (const term of JSON.parse(row.terms) as XetTermRow[]) {
          if (out.size >= limit) return [...out];
          out.add(term.xorb);
        }
      }
      return [...out];
    },
    /** Bytes of every stored xorb (what Xet storage holds on disk). */
    totalXorbBytes(): number {
      return totalXorbs.get()?.total ?? 0;
    },
    /** Registers a file (first registration wins: the same hash is the same content) for a repository. */
    addFile(file: XetFileRow, repoKey: number): void {
      db.transaction(() => {
        insertFile.run(
          file.hash,
          file.sha256 ?? null,
          file.size,
          JSON.stringify(file.terms),
          now().toISOString(),
        );
        grant.run(file.hash, repoKey);
      })();
    },
    file(hash: string): XetFileRow | undefined {
      const row = fileRow.get(hash);
      return row && toFile(row);
    },
    fileBySha256(sha256: string): XetFileRow | undefined {
      const row = fileBySha.get(sha256);
      return row && toFile(row);
    },
    /** Whether a shard upload with a token of this repository registered the file. */
    fileInRepo(hash: string, repoKey: number): boolean {
      return (granted.get(hash, repoKey)?.n ?? 0) > 0;
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
        const rows = db
          .prepare<unknown[], { sha256: string; hash: string }>(
            `SELECT f.sha256 AS sha256, f.hash AS hash FROM xet_files f
             JOIN xet_file_repos r ON r.file_hash = f.hash
             WHERE r.repo_id = ? AND f.sha256 IN (${batch.map(() => "?").join(", ")})`,
          )
          .all(repoKey, ...batch);
        for (const row of rows) if (!found.has(row.sha256)) found.set(row.sha256, row.hash);
      }
      return found;
    },
    /** The file hash of the content with this sha256 that this repository registered, if any. */
    fileOfShaInRepo(sha256: string, repoKey: number): string | undefined {
      return grantedSha.get(sha256, repoKey)?.hash;
    },
  };
}

export type XetTable = ReturnType<typeof createXetTable>;
