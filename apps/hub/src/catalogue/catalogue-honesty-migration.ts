/**
 * Migration 47: which repositories are demo copies of catalogue models (issue 38, item 1). Its own file so that
 * its domain owns its schema; store/migrations.ts lists it in order. Tables and indexes are created IF NOT
 * EXISTS: the upgrade tests replay migrations over a database that already holds them.
 *
 * - `demo_copies`: a repository the hub made from a catalogue record (repos/seed-repositories.ts), with where
 *   the original is, the commit that made the copy, and the original's creation date when the catalogue
 *   sourced one (apps/hub/catalogue/sources.json). While main is still that commit, the copy's pages and API
 *   give the original's dates or none, never the day the copy was made, and show huggingface.co's figures
 *   labelled as such; with a mirror configured the copy gives way to the real model (catalogue/demo-copies.ts).
 *
 * Data directories seeded before this migration are filled here: a demo copy is a model repository whose root
 * commit is titled "Demo copy of {id}" (seedRepositories' title). Their records' creation dates were stored
 * without saying whether they were sourced; the sourced ones are all whole UTC days
 * (sources.json), which a date stamped at seeding is not (it has its milliseconds), so only those are kept.
 */
const COMMON = (bigint: string) => `
  CREATE TABLE IF NOT EXISTS demo_copies (
    repo_id ${bigint} PRIMARY KEY REFERENCES repos (id) ON DELETE CASCADE,
    original_url TEXT NOT NULL,
    seeded_commit TEXT NOT NULL,
    original_created_at TEXT
  );
  INSERT INTO demo_copies (repo_id, original_url, seeded_commit, original_created_at)
    SELECT repos.id, 'https://huggingface.co/' || repos.name, commits.oid,
      CASE WHEN models.created_at LIKE '%T00:00:00.000Z' THEN models.created_at END
    FROM repos
    JOIN commits ON commits.repo_id = repos.id
      AND commits.parents = '[]' AND commits.title = 'Demo copy of ' || repos.name
    LEFT JOIN models ON models.id = repos.name
    WHERE repos.type = 'model' AND repos.mirror_of IS NULL
  ON CONFLICT DO NOTHING;
`;

export const CATALOGUE_HONESTY_MIGRATION = {
  sqlite: COMMON("INTEGER"),
  postgres: COMMON("BIGINT"),
} as const;
