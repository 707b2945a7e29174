import { refreshLocalAppsOf } from "../catalogue/local-apps.js";
import type { DerivedModel } from "../derive/derive-model.js";
import type { DerivedRepoCard } from "../derive/derive-repo-card.js";
import type { Queryable } from "../store/database.js";
import { commitFileCache } from "./commit-file-cache.js";
import { type CommitRootCache, commitRootCache } from "./commit-root-cache.js";
import { createRepoLookupCache, type RepoLookup } from "./repo-lookup-cache.js";
import type { CommitRecord, FileRecord, Gated, RepoRecord, RepoType } from "./repo-records.js";
import type { SealedNode } from "./tree-draft.js";
import { comparePaths, type FileEntry, type FolderEntry, isFolderEntry } from "./tree-nodes.js";
import { createTreeNodesTable } from "./tree-nodes-table.js";

export {
  type CommitRecord,
  type FileRecord,
  type Gated,
  REPO_TYPES,
  type RepoRecord,
  type RepoType,
  repoLock,
} from "./repo-records.js";

/** A `repos` row as SQL returns it. */
export interface RepoRow {
  id: number;
  type: RepoType;
  name: string;
  owner: string;
  private: number;
  gated: "auto" | "manual" | null;
  created_at: string;
  last_modified: string;
  mirror_of?: string | null;
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

/** The `repos` columns repoFromRow reads, for the lookups that need no more. */
const RECORD_COLUMNS = [
  "id",
  "type",
  "name",
  "owner",
  "private",
  "gated",
  "created_at",
  "last_modified",
  "mirror_of",
]
  .map((column) => `repos.${column}`)
  .join(", ");

export const repoFromRow = (row: RepoRow): RepoRecord => ({
  key: row.id,
  type: row.type,
  id: row.name,
  owner: row.owner,
  private: row.private === 1,
  gated: row.gated ?? false,
  createdAt: row.created_at,
  lastModified: row.last_modified,
  ...(row.mirror_of ? { mirrorOf: row.mirror_of } : {}),
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

const fileRecord = (entry: FileEntry & { path: string }): FileRecord => ({
  path: entry.path,
  blobOid: entry.blobOid,
  sha256: entry.sha256,
  size: entry.size,
  lfs: entry.lfs,
});

/** Rows per multi-row INSERT of a commit's content index: few round trips, far below any parameter limit. */
const INSERT_BATCH = 200;

/** What a commit's files hold, for the content index (`repo_contents`). */
export type ContentRecord = Pick<FileRecord, "sha256" | "size" | "lfs">;

/** SQL over repositories, commits, snapshots, refs and uploaded LFS objects. Bound parameters only. */
export function createReposTable(
  q: Queryable,
  roots: CommitRootCache = commitRootCache,
  /** Told of each repository whose content index (`repo_contents`) a write changed (store.ts). */
  contentsChanged: (repoKey: number) => void = () => {},
  /** The database's change mark (Database.changeMark): repository lookups are kept under it. */
  changeMark?: () => string | undefined,
) {
  const nodes = createTreeNodesTable(q);
  const lookups = changeMark ? createRepoLookupCache(changeMark) : undefined;
  /** A commit's root folder (its node and git tree), or undefined for an unknown commit. */
  const rootOf = async (repo: number, commitOid: string): Promise<FolderEntry | undefined> => {
    // A copy: the commit engine builds on the root it is given.
    const cached = roots.get(repo, commitOid);
    if (cached) return { ...cached };
    const row = await q.get<{ root_node: string | null; tree: string }>(
      "SELECT root_node, tree FROM commits WHERE repo_id = ? AND oid = ?",
      [repo, commitOid],
    );
    if (!row?.root_node) return undefined;
    const root: FolderEntry = { name: "", node: row.root_node, tree: row.tree };
    roots.set(repo, commitOid, { ...root });
    return root;
  };
  const repoRow = async (sql: string, params: unknown[]) => {
    const row = await q.get<RepoRow>(sql, params);
    return row ? repoFromRow(row) : undefined;
  };
  /** Multi-row `INSERT ... ON CONFLICT DO NOTHING` of `rows` (each `width` values) in batches. */
  const insertRows = async (head: string, width: number, rows: unknown[][]) => {
    const tuple = `(${new Array(width).fill("?").join(", ")})`;
    for (let at = 0; at < rows.length; at += INSERT_BATCH) {
      const batch = rows.slice(at, at + INSERT_BATCH);
      await q.run(`${head} VALUES ${batch.map(() => tuple).join(", ")} ON CONFLICT DO NOTHING`, batch.flat());
    }
  };
  const dropRedirect = (type: string, name: string) =>
    q.run("DELETE FROM repo_redirects WHERE type = ? AND from_name = ?", [type, name]);

  return {
    get(type: RepoType, id: string): Promise<RepoRecord | undefined> {
      return repoRow("SELECT * FROM repos WHERE type = ? AND name = ?", [type, id]);
    },
    /**
     * The repository and, in the same read, the commit one of its refs points at (undefined: no such ref):
     * the lookup of a request that names a revision, one query where the row and the ref were two.
     */
    async getWithRef(type: RepoType, id: string, ref: string): Promise<RepoLookup | undefined> {
      const read = async (): Promise<RepoLookup | undefined> => {
        // The record's columns only: the card's data and search text are read by those who need them.
        const row = await q.get<RepoRow & { ref_commit_oid: string | null }>(
          `SELECT ${RECORD_COLUMNS}, refs.commit_oid AS ref_commit_oid FROM repos
           LEFT JOIN refs ON refs.repo_id = repos.id AND refs.name = ?
           WHERE repos.type = ? AND repos.name = ?`,
          [ref, type, id],
        );
        return row ? { repo: repoFromRow(row), refCommitOid: row.ref_commit_oid ?? undefined } : undefined;
      };
      return lookups ? lookups.lookup(type, id, ref, read) : read();
    },
    byKey(key: number): Promise<RepoRecord | undefined> {
      return repoRow("SELECT * FROM repos WHERE id = ?", [key]);
    },
    /** The repository a former id now points to, after a move. */
    redirected(type: RepoType, id: string): Promise<RepoRecord | undefined> {
      return repoRow(
        `SELECT repos.* FROM repo_redirects JOIN repos ON repos.id = repo_redirects.repo_id
         WHERE repo_redirects.type = ? AND repo_redirects.from_name = ?`,
        [type, id],
      );
    },
    /** The keys of every repository of one type, oldest first (start-up work over all of them). */
    async keysOfType(type: RepoType): Promise<number[]> {
      const rows = await q.all<{ id: number }>("SELECT id FROM repos WHERE type = ? ORDER BY id", [type]);
      return rows.map((row) => Number(row.id));
    },
    async listByOwner(type: RepoType, owner: string): Promise<RepoRecord[]> {
      const rows = await q.all<RepoRow>("SELECT * FROM repos WHERE type = ? AND owner = ? ORDER BY name", [
        type,
        owner,
      ]);
      return rows.map(repoFromRow);
    },
    async insert(repo: {
      type: RepoType;
      id: string;
      owner: string;
      private: boolean;
      gated: Gated;
      now: string;
      /** The upstream base URL, for a mirrored repository. */
      mirrorOf?: string;
    }): Promise<RepoRecord> {
      await dropRedirect(repo.type, repo.id);
      const row = await q.get<RepoRow>(
        `INSERT INTO repos (type, name, owner, private, gated, created_at, last_modified, mirror_of)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        [
          repo.type,
          repo.id,
          repo.owner,
          repo.private ? 1 : 0,
          repo.gated || null,
          repo.now,
          repo.now,
          repo.mirrorOf ?? null,
        ],
      );
      return repoFromRow(row!);
    },
    async delete(key: number): Promise<void> {
      await q.run("DELETE FROM repos WHERE id = ?", [key]);
    },
    /** Renames a repository; its former id keeps redirecting to it. */
    async move(repo: RepoRecord, to: { id: string; owner: string }): Promise<void> {
      await dropRedirect(repo.type, to.id);
      await q.run("UPDATE repos SET name = ?, owner = ? WHERE id = ?", [to.id, to.owner, repo.key]);
      await q.run(
        `INSERT INTO repo_redirects (type, from_name, repo_id) VALUES (?, ?, ?)
         ON CONFLICT (type, from_name) DO UPDATE SET repo_id = excluded.repo_id`,
        [repo.type, repo.id, repo.key],
      );
    },
    /** Makes a former or other id lead to a repository (a mirrored repository under the id it was asked by). */
    async addRedirect(type: RepoType, fromId: string, repoKey: number): Promise<void> {
      await q.run(
        `INSERT INTO repo_redirects (type, from_name, repo_id) VALUES (?, ?, ?)
         ON CONFLICT (type, from_name) DO UPDATE SET repo_id = excluded.repo_id`,
        [type, fromId, repoKey],
      );
    },
    async setSettings(key: number, settings: { private: boolean; gated: Gated }): Promise<void> {
      await q.run("UPDATE repos SET private = ?, gated = ? WHERE id = ?", [
        settings.private ? 1 : 0,
        settings.gated || null,
        key,
      ]);
    },
    async touch(key: number, now: string): Promise<void> {
      await q.run("UPDATE repos SET last_modified = ? WHERE id = ?", [now, key]);
    },

    async commit(repo: number, oid: string): Promise<CommitRecord | undefined> {
      const row = await q.get<CommitRow>("SELECT * FROM commits WHERE repo_id = ? AND oid = ?", [repo, oid]);
      return row ? commitFromRow(row) : undefined;
    },
    /**
     * Up to `limit` commit ids of the repository starting with `prefix` (lowercase hex): a range on the
     * (repo_id, oid) key rather than LIKE, which PostgreSQL cannot answer from the index under every collation.
     */
    async commitOidsWithPrefix(repo: number, prefix: string, limit: number): Promise<string[]> {
      const rows = await q.all<{ oid: string }>(
        "SELECT oid FROM commits WHERE repo_id = ? AND oid >= ? AND oid < ? ORDER BY oid LIMIT ?",
        [repo, prefix, `${prefix}g`, limit],
      );
      return rows.map((row) => row.oid);
    },
    /** Records a commit whose snapshot is the tree at `rootNode` (its nodes written first: writeTree). */
    async insertCommit(repo: number, commit: CommitRecord, rootNode: string): Promise<void> {
      await q.run(
        `INSERT INTO commits (repo_id, oid, tree, parents, author, title, message, created_at, root_node)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        [
          repo,
          commit.oid,
          commit.tree,
          JSON.stringify(commit.parents),
          commit.author,
          commit.title,
          commit.message,
          commit.createdAt,
          rootNode,
        ],
      );
    },
    /** A commit's root folder: where the commit engine starts changing paths. */
    rootOf,
    /** Reads a repository's tree nodes (the commit engine opens the folders it changes). */
    treeNodes: nodes,
    /** Stores the nodes a commit sealed. */
    writeTree(repo: number, sealed: readonly SealedNode[]): Promise<void> {
      return nodes.write(repo, sealed);
    },
    /** Adds what a commit puts to the repository's content index (insert if absent). */
    async recordContents(repo: number, contents: readonly ContentRecord[]): Promise<void> {
      const distinct = new Map(contents.map((content) => [`${content.sha256}:${content.lfs}`, content]));
      await insertRows(
        "INSERT INTO repo_contents (repo_id, sha256, lfs, size)",
        4,
        [...distinct.values()].map((content) => [repo, content.sha256, content.lfs ? 1 : 0, content.size]),
      );
      contentsChanged(repo);
    },
    async files(repo: number, commitOid: string, under?: string): Promise<FileRecord[]> {
      const root = await rootOf(repo, commitOid);
      const folder = root && (await nodes.entryAt(repo, root, under ?? ""));
      if (!folder || !isFolderEntry(folder)) return [];
      return (await nodes.subtree(repo, folder, under ?? "")).files.map(fileRecord);
    },
    async file(repo: number, commitOid: string, path: string): Promise<FileRecord | undefined> {
      const kept = commitFileCache.get(repo, commitOid, path);
      if (kept) return kept;
      const root = await rootOf(repo, commitOid);
      const entry = root && (await nodes.entryAt(repo, root, path));
      if (!entry || isFolderEntry(entry)) return undefined;
      const file = fileRecord({ ...entry, path });
      commitFileCache.set(repo, commitOid, file);
      return file;
    },
    async tree(repo: number, commitOid: string, path: string): Promise<string | undefined> {
      const root = await rootOf(repo, commitOid);
      const entry = root && (await nodes.entryAt(repo, root, path));
      return entry && isFolderEntry(entry) ? entry.tree : undefined;
    },
    /** The direct entries of the folder `dir` ("" = the root), or undefined when it is not a folder there. */
    async children(
      repo: number,
      commitOid: string,
      dir: string,
    ): Promise<{ files: FileRecord[]; folders: Map<string, string> } | undefined> {
      const root = await rootOf(repo, commitOid);
      const folder = root && (await nodes.entryAt(repo, root, dir));
      if (!folder || !isFolderEntry(folder)) return undefined;
      const files: FileRecord[] = [];
      const folders = new Map<string, string>();
      for (const entry of await nodes.entriesOf(repo, await nodes.node(repo, folder.node))) {
        const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
        if (isFolderEntry(entry)) folders.set(path, entry.tree);
        else files.push(fileRecord({ ...entry, path }));
      }
      return { files, folders };
    },
    /** Git tree ids of every folder strictly under `under` ("" = the root's), by path. */
    async treesUnder(repo: number, commitOid: string, under: string): Promise<Map<string, string>> {
      const root = await rootOf(repo, commitOid);
      const folder = root && (await nodes.entryAt(repo, root, under));
      if (!folder || !isFolderEntry(folder)) return new Map();
      const { folders } = await nodes.subtree(repo, folder, under);
      return new Map([...folders].sort(([a], [b]) => comparePaths(a, b)));
    },
    /** Bytes of distinct content the repository's history holds. */
    async usedStorage(repo: number): Promise<number> {
      const row = await q.get<{ total: number | string | null }>(
        `SELECT sum(size) AS total FROM (SELECT DISTINCT sha256, size FROM repo_contents WHERE repo_id = ?)
           AS distinct_content`,
        [repo],
      );
      return Number(row?.total ?? 0);
    },

    async ref(repo: number, name: string): Promise<string | undefined> {
      const row = await q.get<{ commit_oid: string }>(
        "SELECT commit_oid FROM refs WHERE repo_id = ? AND name = ?",
        [repo, name],
      );
      return row?.commit_oid;
    },
    async refs(repo: number): Promise<{ name: string; commitOid: string }[]> {
      const rows = await q.all<{ name: string; commit_oid: string }>(
        "SELECT name, commit_oid FROM refs WHERE repo_id = ? ORDER BY name",
        [repo],
      );
      return rows.map((row) => ({ name: row.name, commitOid: row.commit_oid }));
    },
    async setRef(repo: number, name: string, commitOid: string): Promise<void> {
      await q.run(
        `INSERT INTO refs (repo_id, name, commit_oid) VALUES (?, ?, ?)
         ON CONFLICT (repo_id, name) DO UPDATE SET commit_oid = excluded.commit_oid`,
        [repo, name, commitOid],
      );
    },
    async deleteRef(repo: number, name: string): Promise<boolean> {
      return (await q.run("DELETE FROM refs WHERE repo_id = ? AND name = ?", [repo, name])) > 0;
    },

    /** Records that an uploaded and verified LFS object belongs to a repository (it may then be committed). */
    async addLfsObject(repo: number, sha256: string, size: number, now: string): Promise<void> {
      await q.run(
        "INSERT INTO lfs_objects (repo_id, sha256, size, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
        [repo, sha256, size, now],
      );
    },
    lfsObject(repo: number, sha256: string): Promise<{ size: number } | undefined> {
      return q.get<{ size: number }>("SELECT size FROM lfs_objects WHERE repo_id = ? AND sha256 = ?", [
        repo,
        sha256,
      ]);
    },
    /** Size of content known anywhere in the hub (any repository's history or uploads). */
    knownContent(sha256: string): Promise<{ size: number } | undefined> {
      return q.get<{ size: number }>(
        "SELECT size FROM repo_contents WHERE sha256 = ? UNION ALL SELECT size FROM lfs_objects WHERE sha256 = ? LIMIT 1",
        [sha256, sha256],
      );
    },
    /** Whether some commit of the repository holds this content (copies of LFS files within a repository). */
    async repoHoldsContent(repo: number, sha256: string): Promise<boolean> {
      const row = await q.get<{ n: number }>(
        "SELECT 1 AS n FROM repo_contents WHERE repo_id = ? AND sha256 = ? LIMIT 1",
        [repo, sha256],
      );
      return row !== undefined;
    },
    /**
     * Repositories whose history holds this content as an LFS file (public ones first, at most `limit`): where
     * a caller may already be able to read it (content-claims.ts).
     */
    async reposHoldingContent(sha256: string, limit: number): Promise<RepoRecord[]> {
      const rows = await q.all<RepoRow>(
        `SELECT * FROM repos WHERE id IN (
           SELECT repo_id FROM repo_contents WHERE sha256 = ? AND lfs = 1)
         ORDER BY private, gated IS NOT NULL, id LIMIT ?`,
        [sha256, limit],
      );
      return rows.map(repoFromRow);
    },
    /** Copies a model repository's visibility and modification time onto its \`models\` row. */
    async syncModelRow(repo: RepoRecord): Promise<void> {
      if (repo.type !== "model") return;
      await q.run("UPDATE models SET private = ?, gated = ?, last_modified = ? WHERE id = ?", [
        repo.private ? 1 : 0,
        repo.gated || null,
        repo.lastModified,
        repo.id,
      ]);
    },
    /**
     * Writes what a commit's files say onto the model's row. Safetensors and GGUF summaries and the
     * transformers info are only replaced when the files give new ones (a catalogue record keeps its
     * original model's figures).
     */
    async setDerivedModelFields(id: string, derived: DerivedModel): Promise<void> {
      const text = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
      await q.run(
        `UPDATE models SET card_data = ?, card_text = ?, config = ?, tags = ?, pipeline_tag = ?,
           library_name = ?, siblings = ?, safetensors = coalesce(?, safetensors), gguf = coalesce(?, gguf),
           transformers_info = coalesce(?, transformers_info)
         WHERE id = ?`,
        [
          text(derived.cardData),
          derived.cardText ?? null,
          text(derived.config),
          JSON.stringify(derived.tags),
          derived.pipeline_tag ?? null,
          derived.library_name ?? null,
          JSON.stringify(derived.siblings),
          text(derived.safetensors),
          text(derived.gguf),
          text(derived.transformersInfo),
          id,
        ],
      );
      await refreshLocalAppsOf(q, id);
    },
    /** Writes what a dataset's or space's card says onto its row, for the listings' columns and filters. */
    async setDerivedCard(key: number, derived: DerivedRepoCard): Promise<void> {
      await q.run("UPDATE repos SET card_data = ?, tags = ?, sdk = ?, card_text = ? WHERE id = ?", [
        derived.cardData ? JSON.stringify(derived.cardData) : null,
        JSON.stringify(derived.tags),
        derived.sdk ?? null,
        derived.cardText ?? null,
        key,
      ]);
    },
    async renameModelRow(from: string, to: string): Promise<void> {
      await q.run("UPDATE models SET id = ?, author = ? WHERE id = ?", [
        to,
        to.includes("/") ? to.split("/")[0]! : to,
        from,
      ]);
    },
  };
}

export type ReposTable = ReturnType<typeof createReposTable>;
