import type Database from "better-sqlite3";
import type { DerivedModel } from "../derive/derive-model.js";

export const REPO_TYPES = ["model", "dataset", "space"] as const;
export type RepoType = (typeof REPO_TYPES)[number];
export type Gated = false | "auto" | "manual";

export interface RepoRecord {
  /** Internal row id (never shown). */
  key: number;
  type: RepoType;
  /** `owner/name` (or a legacy single-segment id such as `gpt2`). */
  id: string;
  owner: string;
  private: boolean;
  gated: Gated;
  createdAt: string;
  lastModified: string;
}

export interface CommitRecord {
  oid: string;
  tree: string;
  parents: string[];
  author: string;
  title: string;
  message: string;
  createdAt: string;
}

/** A file of a commit: its path, git blob id, and where its bytes are (sha256 in the blob store). */
export interface FileRecord {
  path: string;
  blobOid: string;
  sha256: string;
  size: number;
  lfs: boolean;
}

interface RepoRow {
  id: number;
  type: RepoType;
  name: string;
  owner: string;
  private: number;
  gated: "auto" | "manual" | null;
  created_at: string;
  last_modified: string;
}

interface CommitRow {
  oid: string;
  tree: string;
  parents: string;
  author: string;
  title: string;
  message: string;
  created_at: string;
}

interface FileRow {
  path: string;
  blob_oid: string;
  sha256: string;
  size: number;
  lfs: number;
}

const repoFromRow = (row: RepoRow): RepoRecord => ({
  key: row.id,
  type: row.type,
  id: row.name,
  owner: row.owner,
  private: row.private === 1,
  gated: row.gated ?? false,
  createdAt: row.created_at,
  lastModified: row.last_modified,
});

const commitFromRow = (row: CommitRow): CommitRecord => ({
  oid: row.oid,
  tree: row.tree,
  parents: JSON.parse(row.parents) as string[],
  author: row.author,
  title: row.title,
  message: row.message,
  createdAt: row.created_at,
});

const fileFromRow = (row: FileRow): FileRecord => ({
  path: row.path,
  blobOid: row.blob_oid,
  sha256: row.sha256,
  size: row.size,
  lfs: row.lfs === 1,
});

/** SQL over repositories, commits, snapshots, refs and uploaded LFS objects. Bound parameters only. */
export function createReposTable(db: Database.Database) {
  const byName = db.prepare<[string, string], RepoRow>("SELECT * FROM repos WHERE type = ? AND name = ?");
  const byKey = db.prepare<[number], RepoRow>("SELECT * FROM repos WHERE id = ?");
  const redirect = db.prepare<[string, string], RepoRow>(
    `SELECT repos.* FROM repo_redirects JOIN repos ON repos.id = repo_redirects.repo_id
     WHERE repo_redirects.type = ? AND repo_redirects.from_name = ?`,
  );
  const insertRepo = db.prepare(
    `INSERT INTO repos (type, name, owner, private, gated, created_at, last_modified)
     VALUES (@type, @name, @owner, @private, @gated, @now, @now)`,
  );
  const deleteRepo = db.prepare<[number]>("DELETE FROM repos WHERE id = ?");
  const renameRepo = db.prepare<[string, string, number]>(
    "UPDATE repos SET name = ?, owner = ? WHERE id = ?",
  );
  const insertRedirect = db.prepare<[string, string, number]>(
    `INSERT INTO repo_redirects (type, from_name, repo_id) VALUES (?, ?, ?)
     ON CONFLICT (type, from_name) DO UPDATE SET repo_id = excluded.repo_id`,
  );
  const dropRedirect = db.prepare<[string, string]>(
    "DELETE FROM repo_redirects WHERE type = ? AND from_name = ?",
  );
  const setSettings = db.prepare<[number, string | null, number]>(
    "UPDATE repos SET private = ?, gated = ? WHERE id = ?",
  );
  const touch = db.prepare<[string, number]>("UPDATE repos SET last_modified = ? WHERE id = ?");
  const listByOwner = db.prepare<[string, string], RepoRow>(
    "SELECT * FROM repos WHERE type = ? AND owner = ? ORDER BY name",
  );

  const commitByOid = db.prepare<[number, string], CommitRow>(
    "SELECT * FROM commits WHERE repo_id = ? AND oid = ?",
  );
  const insertCommit = db.prepare(
    `INSERT OR IGNORE INTO commits (repo_id, oid, tree, parents, author, title, message, created_at)
     VALUES (@repo, @oid, @tree, @parents, @author, @title, @message, @createdAt)`,
  );
  const insertFile = db.prepare<[number, string, string, string]>(
    "INSERT OR IGNORE INTO commit_files (repo_id, commit_oid, path, blob_oid) VALUES (?, ?, ?, ?)",
  );
  const insertTree = db.prepare<[number, string, string, string]>(
    "INSERT OR IGNORE INTO commit_trees (repo_id, commit_oid, path, tree_oid) VALUES (?, ?, ?, ?)",
  );
  const upsertBlob = db.prepare<[string, string, number, number]>(
    "INSERT OR IGNORE INTO git_blobs (oid, sha256, size, lfs) VALUES (?, ?, ?, ?)",
  );
  const fileColumns = `f.path, f.blob_oid, b.sha256, b.size, b.lfs
    FROM commit_files f JOIN git_blobs b ON b.oid = f.blob_oid`;
  const filesOf = db.prepare<[number, string], FileRow>(
    `SELECT ${fileColumns} WHERE f.repo_id = ? AND f.commit_oid = ? ORDER BY f.path`,
  );
  const filesUnder = db.prepare<[number, string, string, string], FileRow>(
    `SELECT ${fileColumns} WHERE f.repo_id = ? AND f.commit_oid = ? AND f.path > ? AND f.path < ?
     ORDER BY f.path`,
  );
  const fileAt = db.prepare<[number, string, string], FileRow>(
    `SELECT ${fileColumns} WHERE f.repo_id = ? AND f.commit_oid = ? AND f.path = ?`,
  );
  const treeAt = db.prepare<[number, string, string], { tree_oid: string }>(
    "SELECT tree_oid FROM commit_trees WHERE repo_id = ? AND commit_oid = ? AND path = ?",
  );
  const treesUnder = db.prepare<[number, string, string, string], { path: string; tree_oid: string }>(
    `SELECT path, tree_oid FROM commit_trees WHERE repo_id = ? AND commit_oid = ? AND path > ? AND path < ?
     ORDER BY path`,
  );
  const storageOf = db.prepare<[number], { total: number | null }>(
    `SELECT sum(size) AS total FROM (SELECT DISTINCT b.sha256, b.size FROM commit_files f
       JOIN git_blobs b ON b.oid = f.blob_oid WHERE f.repo_id = ?)`,
  );

  const refByName = db.prepare<[number, string], { commit_oid: string }>(
    "SELECT commit_oid FROM refs WHERE repo_id = ? AND name = ?",
  );
  const refsOf = db.prepare<[number], { name: string; commit_oid: string }>(
    "SELECT name, commit_oid FROM refs WHERE repo_id = ? ORDER BY name",
  );
  const setRef = db.prepare<[number, string, string]>(
    `INSERT INTO refs (repo_id, name, commit_oid) VALUES (?, ?, ?)
     ON CONFLICT (repo_id, name) DO UPDATE SET commit_oid = excluded.commit_oid`,
  );
  const deleteRef = db.prepare<[number, string]>("DELETE FROM refs WHERE repo_id = ? AND name = ?");

  const addLfs = db.prepare<[number, string, number, string]>(
    "INSERT OR IGNORE INTO lfs_objects (repo_id, sha256, size, created_at) VALUES (?, ?, ?, ?)",
  );
  const lfsOf = db.prepare<[number, string], { size: number }>(
    "SELECT size FROM lfs_objects WHERE repo_id = ? AND sha256 = ?",
  );
  const lfsAnywhere = db.prepare<[string, string], { size: number }>(
    "SELECT size FROM git_blobs WHERE sha256 = ? UNION ALL SELECT size FROM lfs_objects WHERE sha256 = ? LIMIT 1",
  );
  const referencedSha = db.prepare<[string, string], { n: number }>(
    `SELECT (SELECT count(*) FROM git_blobs WHERE sha256 = ?) + (SELECT count(*) FROM lfs_objects WHERE sha256 = ?) AS n`,
  );
  // A model repository shares its id with its row in \`models\` (what listings and model pages read).
  const syncModel = db.prepare<[number, string | null, string, string]>(
    "UPDATE models SET private = ?, gated = ?, last_modified = ? WHERE id = ?",
  );
  const deriveModel = db.prepare(
    `UPDATE models SET card_data = @cardData, card_text = @cardText, config = @config, tags = @tags,
       pipeline_tag = @pipelineTag, library_name = @libraryName, siblings = @siblings,
       safetensors = coalesce(@safetensors, safetensors), gguf = coalesce(@gguf, gguf)
     WHERE id = @id`,
  );
  const renameModel = db.prepare<[string, string, string]>(
    "UPDATE models SET id = ?, author = ? WHERE id = ?",
  );

  const holdsContent = db.prepare<[number, string], { n: number }>(
    `SELECT 1 AS n FROM commit_files f JOIN git_blobs b ON b.oid = f.blob_oid
     WHERE f.repo_id = ? AND b.sha256 = ? LIMIT 1`,
  );
  const range = (prefix: string): [string, string] => [`${prefix}/`, `${prefix}0`];

  return {
    get(type: RepoType, id: string): RepoRecord | undefined {
      const row = byName.get(type, id);
      return row ? repoFromRow(row) : undefined;
    },
    byKey(key: number): RepoRecord | undefined {
      const row = byKey.get(key);
      return row ? repoFromRow(row) : undefined;
    },
    /** The repository a former id now points to, after a move. */
    redirected(type: RepoType, id: string): RepoRecord | undefined {
      const row = redirect.get(type, id);
      return row ? repoFromRow(row) : undefined;
    },
    listByOwner(type: RepoType, owner: string): RepoRecord[] {
      return listByOwner.all(type, owner).map(repoFromRow);
    },
    insert(repo: {
      type: RepoType;
      id: string;
      owner: string;
      private: boolean;
      gated: Gated;
      now: string;
    }): RepoRecord {
      dropRedirect.run(repo.type, repo.id);
      const { lastInsertRowid } = insertRepo.run({
        type: repo.type,
        name: repo.id,
        owner: repo.owner,
        private: repo.private ? 1 : 0,
        gated: repo.gated || null,
        now: repo.now,
      });
      return repoFromRow(byKey.get(Number(lastInsertRowid))!);
    },
    delete(key: number): void {
      deleteRepo.run(key);
    },
    /** Renames a repository; its former id keeps redirecting to it. */
    move(repo: RepoRecord, to: { id: string; owner: string }): void {
      dropRedirect.run(repo.type, to.id);
      renameRepo.run(to.id, to.owner, repo.key);
      insertRedirect.run(repo.type, repo.id, repo.key);
    },
    setSettings(key: number, settings: { private: boolean; gated: Gated }): void {
      setSettings.run(settings.private ? 1 : 0, settings.gated || null, key);
    },
    touch(key: number, now: string): void {
      touch.run(now, key);
    },

    commit(repo: number, oid: string): CommitRecord | undefined {
      const row = commitByOid.get(repo, oid);
      return row ? commitFromRow(row) : undefined;
    },
    insertCommit(repo: number, commit: CommitRecord): void {
      insertCommit.run({ repo, ...commit, parents: JSON.stringify(commit.parents) });
    },
    insertSnapshot(
      repo: number,
      commitOid: string,
      files: Iterable<FileRecord>,
      trees: ReadonlyMap<string, string>,
    ): void {
      for (const file of files) {
        upsertBlob.run(file.blobOid, file.sha256, file.size, file.lfs ? 1 : 0);
        insertFile.run(repo, commitOid, file.path, file.blobOid);
      }
      for (const [path, oid] of trees) insertTree.run(repo, commitOid, path, oid);
    },
    files(repo: number, commitOid: string, under?: string): FileRecord[] {
      const rows = under ? filesUnder.all(repo, commitOid, ...range(under)) : filesOf.all(repo, commitOid);
      return rows.map(fileFromRow);
    },
    file(repo: number, commitOid: string, path: string): FileRecord | undefined {
      const row = fileAt.get(repo, commitOid, path);
      return row ? fileFromRow(row) : undefined;
    },
    tree(repo: number, commitOid: string, path: string): string | undefined {
      return treeAt.get(repo, commitOid, path)?.tree_oid;
    },
    treesUnder(repo: number, commitOid: string, under: string): Map<string, string> {
      const rows =
        under === ""
          ? treesUnder.all(repo, commitOid, "", "\uffff")
          : treesUnder.all(repo, commitOid, ...range(under));
      return new Map(rows.map((row) => [row.path, row.tree_oid]));
    },
    /** Bytes of distinct content the repository's history holds. */
    usedStorage(repo: number): number {
      return storageOf.get(repo)?.total ?? 0;
    },

    ref(repo: number, name: string): string | undefined {
      return refByName.get(repo, name)?.commit_oid;
    },
    refs(repo: number): { name: string; commitOid: string }[] {
      return refsOf.all(repo).map((row) => ({ name: row.name, commitOid: row.commit_oid }));
    },
    setRef(repo: number, name: string, commitOid: string): void {
      setRef.run(repo, name, commitOid);
    },
    deleteRef(repo: number, name: string): boolean {
      return deleteRef.run(repo, name).changes > 0;
    },

    /** Records that an uploaded and verified LFS object belongs to a repository (it may then be committed). */
    addLfsObject(repo: number, sha256: string, size: number, now: string): void {
      addLfs.run(repo, sha256, size, now);
    },
    lfsObject(repo: number, sha256: string): { size: number } | undefined {
      return lfsOf.get(repo, sha256);
    },
    /** Size of content known anywhere in the hub (any repository's history or uploads). */
    knownContent(sha256: string): { size: number } | undefined {
      return lfsAnywhere.get(sha256, sha256);
    },
    /** Whether some commit of the repository holds this content (copies of LFS files within a repository). */
    repoHoldsContent(repo: number, sha256: string): boolean {
      return holdsContent.get(repo, sha256) !== undefined;
    },
    isReferenced(sha256: string): boolean {
      return (referencedSha.get(sha256, sha256)?.n ?? 0) > 0;
    },
    /** Copies a model repository's visibility and modification time onto its \`models\` row. */
    syncModelRow(repo: RepoRecord): void {
      if (repo.type !== "model") return;
      syncModel.run(repo.private ? 1 : 0, repo.gated || null, repo.lastModified, repo.id);
    },
    /**
     * Writes what a commit's files say onto the model's row. Safetensors and GGUF summaries are only replaced
     * when the files give new ones (a catalogue record keeps its original model's figures).
     */
    setDerivedModelFields(id: string, derived: DerivedModel): void {
      const text = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
      deriveModel.run({
        id,
        cardData: text(derived.cardData),
        cardText: derived.cardText ?? null,
        config: text(derived.config),
        tags: JSON.stringify(derived.tags),
        pipelineTag: derived.pipeline_tag ?? null,
        libraryName: derived.library_name ?? null,
        siblings: JSON.stringify(derived.siblings),
        safetensors: text(derived.safetensors),
        gguf: text(derived.gguf),
      });
    },
    renameModelRow(from: string, to: string): void {
      renameModel.run(to, to.includes("/") ? to.split("/")[0]! : to, from);
    },
  };
}

export type ReposTable = ReturnType<typeof createReposTable>;
