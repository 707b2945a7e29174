/**
 * The PostgreSQL schema at migration 7 (migrations.ts): what SQLite reached step by step, created at once on
 * a new PostgreSQL database (there are no older PostgreSQL databases to bring forward). Migrations after 7
 * run on both databases, each in its dialect.
 *
 * Differences from SQLite, all invisible to queries:
 * - `CITEXT` where SQLite says `COLLATE NOCASE` (ids, owners, names, emails): equality and uniqueness
 *   without case, as there.
 * - `BIGINT` for every integer (sizes past 2 GiB, millisecond timestamps), `BIGSERIAL` for SQLite's
 *   `INTEGER PRIMARY KEY`, `DOUBLE PRECISION` for `REAL`.
 * - Text compared and ordered byte-wise (`COLLATE "C"`) where ranges and order matter (paths), as SQLite does.
 * - The trigger of migration 4 as a PL/pgSQL function.
 *
 * Why this text repeats migrations 1-7 rather than both being generated from one schema description: those
 * migrations are released history (SQLite databases were made by that exact text, never edited), while this
 * is the end state they reach, with their ALTERs folded in and their data fixes and dropped table left out;
 * one description giving both would need a model of schema changes. The dialect choices are per column
 * (`CITEXT`, `COLLATE "C"` only where order matters), not a rewrite a generator could infer. Both texts are
 * frozen (later migrations are written once, for both), and store/database-copy.test.ts copies every table
 * from SQLite to PostgreSQL and reads it back equal, so the two cannot drift apart unseen.
 */
export const POSTGRES_BASELINE_VERSION = 7;

export const POSTGRES_BASELINE = `
CREATE EXTENSION IF NOT EXISTS citext;

CREATE TABLE models (
  id CITEXT PRIMARY KEY,
  object_id TEXT NOT NULL UNIQUE,
  author CITEXT NOT NULL,
  pipeline_tag TEXT,
  library_name TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  config TEXT,
  card_data TEXT,
  widget_data TEXT,
  transformers_info TEXT,
  siblings TEXT,
  gguf TEXT,
  safetensors TEXT,
  downloads BIGINT NOT NULL DEFAULT 0,
  likes BIGINT NOT NULL DEFAULT 0,
  trending_score DOUBLE PRECISION NOT NULL DEFAULT 0,
  private BIGINT NOT NULL DEFAULT 0,
  gated TEXT,
  created_at TEXT COLLATE "C" NOT NULL,
  last_modified TEXT COLLATE "C" NOT NULL,
  card_text TEXT
);
CREATE INDEX models_by_downloads ON models (downloads, id);
CREATE INDEX models_by_likes ON models (likes, id);
CREATE INDEX models_by_trending ON models (trending_score, id);
CREATE INDEX models_by_created ON models (created_at, id);
CREATE INDEX models_by_modified ON models (last_modified, id);
CREATE INDEX models_by_pipeline ON models (pipeline_tag);
CREATE INDEX models_by_library ON models (library_name);
CREATE INDEX models_by_author ON models (author);

CREATE TABLE provider_mappings (
  model_id CITEXT NOT NULL REFERENCES models (id) ON DELETE CASCADE ON UPDATE CASCADE,
  provider TEXT NOT NULL,
  task TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('live', 'staging')),
  provider_id TEXT NOT NULL,
  PRIMARY KEY (model_id, provider)
);
CREATE INDEX provider_mappings_by_provider ON provider_mappings (provider, status);

CREATE TABLE accounts (
  id BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('user', 'org')),
  name CITEXT NOT NULL UNIQUE,
  fullname TEXT NOT NULL DEFAULT '',
  email CITEXT,
  password_hash TEXT,
  is_admin BIGINT NOT NULL DEFAULT 0,
  disabled_at TEXT,
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX accounts_by_email ON accounts (email) WHERE email IS NOT NULL;

CREATE TABLE memberships (
  org_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('read', 'write', 'admin')),
  created_at TEXT NOT NULL,
  PRIMARY KEY (org_id, user_id)
);
CREATE INDEX memberships_by_user ON memberships (user_id);

CREATE TABLE tokens (
  id BIGSERIAL PRIMARY KEY,
  name TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  token_hint TEXT NOT NULL,
  scopes TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  last_used_at TEXT,
  user_id BIGINT REFERENCES accounts (id) ON DELETE CASCADE,
  role TEXT NOT NULL DEFAULT 'read',
  fine_grained TEXT,
  expires_at TEXT
);
CREATE INDEX tokens_by_user ON tokens (user_id);

CREATE TABLE usage (
  id BIGSERIAL PRIMARY KEY,
  token_id BIGINT NOT NULL REFERENCES tokens (id),
  provider TEXT NOT NULL,
  model TEXT,
  status BIGINT NOT NULL,
  request_bytes BIGINT NOT NULL,
  response_bytes BIGINT NOT NULL,
  duration_ms BIGINT NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL,
  user_id BIGINT,
  bill_to_id BIGINT
);
CREATE INDEX usage_by_token ON usage (token_id, created_at);
CREATE INDEX usage_by_user ON usage (user_id, created_at);
CREATE INDEX usage_by_bill_to ON usage (bill_to_id, created_at);
CREATE INDEX usage_by_time ON usage (created_at);

CREATE TABLE usage_daily (
  day TEXT COLLATE "C" NOT NULL,
  token_id BIGINT NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  requests BIGINT NOT NULL,
  errors BIGINT NOT NULL,
  request_bytes BIGINT NOT NULL,
  response_bytes BIGINT NOT NULL,
  total_ms BIGINT NOT NULL,
  PRIMARY KEY (day, token_id, provider, model)
);

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE repos (
  id BIGSERIAL PRIMARY KEY,
  type TEXT NOT NULL CHECK (type IN ('model', 'dataset', 'space')),
  name CITEXT NOT NULL,
  owner CITEXT NOT NULL,
  private BIGINT NOT NULL DEFAULT 0,
  gated TEXT CHECK (gated IN ('auto', 'manual')),
  created_at TEXT NOT NULL,
  last_modified TEXT NOT NULL,
  UNIQUE (type, name)
);
CREATE INDEX repos_by_owner ON repos (owner);
CREATE TABLE repo_redirects (
  type TEXT NOT NULL,
  from_name CITEXT NOT NULL,
  repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
  PRIMARY KEY (type, from_name)
);
CREATE TABLE git_blobs (
  oid TEXT PRIMARY KEY,
  sha256 TEXT NOT NULL,
  size BIGINT NOT NULL,
  lfs BIGINT NOT NULL
);
CREATE INDEX git_blobs_by_sha256 ON git_blobs (sha256);
CREATE TABLE commits (
  repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
  oid TEXT NOT NULL,
  tree TEXT NOT NULL,
  parents TEXT NOT NULL,
  author TEXT NOT NULL,
  title TEXT NOT NULL,
  message TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (repo_id, oid)
);
CREATE TABLE commit_files (
  repo_id BIGINT NOT NULL,
  commit_oid TEXT NOT NULL,
  path TEXT COLLATE "C" NOT NULL,
  blob_oid TEXT NOT NULL REFERENCES git_blobs (oid),
  PRIMARY KEY (repo_id, commit_oid, path),
  FOREIGN KEY (repo_id, commit_oid) REFERENCES commits (repo_id, oid) ON DELETE CASCADE
);
CREATE TABLE commit_trees (
  repo_id BIGINT NOT NULL,
  commit_oid TEXT NOT NULL,
  path TEXT COLLATE "C" NOT NULL,
  tree_oid TEXT NOT NULL,
  PRIMARY KEY (repo_id, commit_oid, path),
  FOREIGN KEY (repo_id, commit_oid) REFERENCES commits (repo_id, oid) ON DELETE CASCADE
);
CREATE TABLE refs (
  repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
  name TEXT COLLATE "C" NOT NULL,
  commit_oid TEXT NOT NULL,
  PRIMARY KEY (repo_id, name)
);
CREATE TABLE lfs_objects (
  repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL,
  size BIGINT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (repo_id, sha256)
);
CREATE INDEX lfs_objects_by_sha256 ON lfs_objects (sha256);

CREATE TABLE discussions (
  repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
  num BIGINT NOT NULL,
  is_pull_request BIGINT NOT NULL,
  title TEXT NOT NULL,
  author TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('draft', 'open', 'closed', 'merged')),
  target_ref TEXT,
  base_oid TEXT,
  merge_commit_oid TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (repo_id, num)
);
CREATE TABLE discussion_events (
  id TEXT COLLATE "C" PRIMARY KEY,
  repo_id BIGINT NOT NULL,
  num BIGINT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('comment', 'status-change', 'title-change')),
  author TEXT NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL,
  body TEXT NOT NULL,
  previous TEXT,
  hidden BIGINT NOT NULL DEFAULT 0,
  edits TEXT NOT NULL DEFAULT '[]',
  FOREIGN KEY (repo_id, num) REFERENCES discussions (repo_id, num) ON DELETE CASCADE
);
CREATE INDEX discussion_events_by_discussion ON discussion_events (repo_id, num, created_at);

CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX sessions_by_user ON sessions (user_id);

CREATE TABLE access_requests (
  repo_type TEXT NOT NULL CHECK (repo_type IN ('model', 'dataset', 'space')),
  repo_id CITEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
  fields TEXT,
  created_at TEXT COLLATE "C" NOT NULL,
  decided_at TEXT,
  decided_by BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
  PRIMARY KEY (repo_type, repo_id, user_id)
);

CREATE TABLE invites (
  code_hash TEXT PRIMARY KEY,
  created_by BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  used_by BIGINT REFERENCES accounts (id) ON DELETE SET NULL
);

CREATE TABLE sign_in_failures (
  key TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  failures BIGINT NOT NULL,
  PRIMARY KEY (key, window_start)
);

CREATE FUNCTION models_delete_repository() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM repos WHERE type = 'model' AND name = OLD.id;
  RETURN OLD;
END
$$;
CREATE TRIGGER models_delete_repository AFTER DELETE ON models
  FOR EACH ROW EXECUTE FUNCTION models_delete_repository();

CREATE TABLE xet_xorbs (
  hash TEXT PRIMARY KEY,
  blob_sha256 TEXT NOT NULL,
  size BIGINT NOT NULL,
  chunk_count BIGINT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE xet_chunks (
  xorb_hash TEXT NOT NULL REFERENCES xet_xorbs (hash) ON DELETE CASCADE,
  chunk_index BIGINT NOT NULL,
  chunk_hash TEXT NOT NULL,
  byte_start BIGINT NOT NULL,
  byte_end BIGINT NOT NULL,
  unpacked_size BIGINT NOT NULL,
  PRIMARY KEY (xorb_hash, chunk_index)
);
CREATE INDEX xet_chunks_by_hash ON xet_chunks (chunk_hash);
CREATE TABLE xet_files (
  hash TEXT PRIMARY KEY,
  sha256 TEXT,
  size BIGINT NOT NULL,
  terms TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX xet_files_by_sha256 ON xet_files (sha256);
CREATE TABLE xet_file_repos (
  file_hash TEXT NOT NULL REFERENCES xet_files (hash) ON DELETE CASCADE,
  repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
  PRIMARY KEY (file_hash, repo_id)
);
`;
