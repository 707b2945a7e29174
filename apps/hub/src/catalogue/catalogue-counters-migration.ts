/**
 * Migration 36: this hub's own download counts and likes per repository (35 was released empty). Its own file
 * so that its domain owns its schema; store/migrations.ts lists it in order. Tables and indexes are created IF
 * NOT EXISTS: the upgrade tests replay migrations over a database that already holds them.
 *
 * - `repo_likes`: one row per user and repository they like (huggingface_hub's like / unlike).
 * - `repo_download_days`: downloads per repository and UTC day, counted by the library's `countDownloads` rule
 *   (catalogue/download-rule.ts); days make "recent downloads" (trending) and totals from one table.
 * - `model_source_figures`: downloads and likes a catalogue record brought from huggingface.co, kept apart and
 *   shown labelled as such, never as this hub's counts (issue 38: a demo copy showed "6.8M" downloads).
 *
 * The `models.downloads` / `models.likes` columns stay what listings sort by; before this migration they held
 * the imported figures, which move to `model_source_figures`. Only when nothing was counted yet (the first
 * application): a replay must not zero this hub's own counts.
 */
const COMMON = (bigint: string, nocase: string) => `
  CREATE TABLE IF NOT EXISTS repo_likes (
    user_id ${bigint} NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    repo_id ${bigint} NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (user_id, repo_id)
  );
  CREATE INDEX IF NOT EXISTS repo_likes_by_repo ON repo_likes (repo_id, created_at);
  CREATE INDEX IF NOT EXISTS repo_likes_by_time ON repo_likes (created_at);
  CREATE TABLE IF NOT EXISTS repo_download_days (
    repo_id ${bigint} NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    day TEXT NOT NULL,
    downloads ${bigint} NOT NULL,
    PRIMARY KEY (repo_id, day)
  );
  CREATE INDEX IF NOT EXISTS repo_download_days_by_day ON repo_download_days (day);
  CREATE TABLE IF NOT EXISTS model_source_figures (
    model_id ${nocase} PRIMARY KEY,
    source TEXT NOT NULL,
    downloads ${bigint} NOT NULL,
    likes ${bigint} NOT NULL
  );
  INSERT INTO model_source_figures (model_id, source, downloads, likes)
    SELECT id, 'huggingface.co', downloads, likes FROM models
    WHERE (downloads > 0 OR likes > 0)
      AND NOT EXISTS (SELECT 1 FROM model_source_figures f WHERE f.model_id = models.id)
      AND NOT EXISTS (SELECT 1 FROM repo_likes) AND NOT EXISTS (SELECT 1 FROM repo_download_days);
  UPDATE models SET downloads = 0, likes = 0, trending_score = 0
    WHERE id IN (SELECT model_id FROM model_source_figures)
      AND NOT EXISTS (SELECT 1 FROM repo_likes) AND NOT EXISTS (SELECT 1 FROM repo_download_days);
`;

export const CATALOGUE_COUNTERS_MIGRATION = {
  sqlite: COMMON("INTEGER", "TEXT COLLATE NOCASE"),
  postgres: COMMON("BIGINT", "CITEXT"),
} as const;
