import type { Database } from "../store/database.js";
import { createReposTable } from "../repos/repos-table.js";

/**
 * Puts a database at the current migration back where migration 18 left it: every commit's snapshot as the
 * flat rows of before (`commit_files`, `commit_trees`, global `git_blobs`), written from today's tree nodes,
 * the tables and column of 19 dropped, and what 22 (the mirror's) and 23 (the scanner's) added dropped; the
 * schema version is left to the caller. The next start converts them again (migration 20): what upgrade tests
 * of older databases need. Later indexes over a dropped column go first (SQLite refuses to drop an indexed
 * column): 41's search index holds `mirror_of`.
 */
export async function backToFlatSnapshots(db: Database): Promise<void> {
  await db.exec("DROP INDEX IF EXISTS repos_by_name_visibility");
  await db.exec(
    "DROP TABLE mirror_refs; DROP TABLE mirror_contents; DROP TABLE mirror_xorb_chunks; ALTER TABLE repos DROP COLUMN mirror_of",
  );
  await db.exec("DROP TABLE scan_queue; DROP TABLE scan_allowances");
  const repos = createReposTable(db);
  await db.exec(`
    CREATE TABLE git_blobs (oid TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size BIGINT NOT NULL, lfs BIGINT NOT NULL);
    CREATE INDEX git_blobs_by_sha256 ON git_blobs (sha256);
    CREATE TABLE commit_files (repo_id BIGINT NOT NULL, commit_oid TEXT NOT NULL, path TEXT NOT NULL,
      blob_oid TEXT NOT NULL REFERENCES git_blobs (oid), PRIMARY KEY (repo_id, commit_oid, path));
    CREATE INDEX commit_files_by_blob ON commit_files (blob_oid);
    CREATE TABLE commit_trees (repo_id BIGINT NOT NULL, commit_oid TEXT NOT NULL, path TEXT NOT NULL,
      tree_oid TEXT NOT NULL, PRIMARY KEY (repo_id, commit_oid, path));
  `);
  const commits = await db.all<{ repo_id: number; oid: string }>("SELECT repo_id, oid FROM commits");
  for (const { repo_id, oid } of commits) {
    const repo = Number(repo_id);
    for (const file of await repos.files(repo, oid)) {
      await db.run("INSERT INTO git_blobs (oid, sha256, size, lfs) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", [
        file.blobOid,
        file.sha256,
        file.size,
        file.lfs ? 1 : 0,
      ]);
      await db.run("INSERT INTO commit_files (repo_id, commit_oid, path, blob_oid) VALUES (?, ?, ?, ?)", [
        repo,
        oid,
        file.path,
        file.blobOid,
      ]);
    }
    const trees = new Map([["", (await repos.tree(repo, oid, ""))!], ...(await repos.treesUnder(repo, oid, ""))]);
    for (const [path, tree] of trees) {
      await db.run("INSERT INTO commit_trees (repo_id, commit_oid, path, tree_oid) VALUES (?, ?, ?, ?)", [
        repo,
        oid,
        path,
        tree,
      ]);
    }
  }
  await db.exec("DROP TABLE tree_nodes; DROP TABLE repo_contents; ALTER TABLE commits DROP COLUMN root_node");
}
