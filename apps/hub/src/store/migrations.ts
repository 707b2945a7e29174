import { AUDIT_MIGRATION } from "../audit/audit-migration.js";
import { BUCKETS_MIGRATION } from "../buckets/buckets-migration.js";
import { CATALOGUE_COUNTERS_MIGRATION } from "../catalogue/catalogue-counters-migration.js";
import { CATALOGUE_HONESTY_MIGRATION } from "../catalogue/catalogue-honesty-migration.js";
import { ENGAGEMENT_MIGRATION } from "../catalogue/engagement-migration.js";
import { COLLECTIONS_MIGRATION } from "../collections/collections-migration.js";
import { GIT_MIGRATION } from "../git/git-migration.js";
import { GIT_PUSH_MIGRATION } from "../git/git-push-migration.js";
import { LIMITS_MIGRATION } from "../limits/limits-migration.js";
import { QUOTA_USAGE_MIGRATION } from "../limits/quota-usage-migration.js";
import { LFS_FILES_MIGRATION } from "../repos/lfs-files-migration.js";
import { REVISION_CACHE_MIGRATION } from "../repos/revision-cache-migration.js";
import { convertSnapshotsToTreeNodes } from "../repos/snapshot-conversion.js";
import { LOCAL_PROVIDER_MIGRATION } from "../router/local-provider-migration.js";
import { ORG_OWN_PROVIDERS_MIGRATION } from "../router/org-own-providers-migration.js";
import { ORG_PROVIDER_PRICES_MIGRATION } from "../router/org-provider-prices-migration.js";
import { ORG_PROVIDERS_MIGRATION } from "../router/org-providers-migration.js";
import { OWN_PROVIDERS_MIGRATION } from "../router/own-providers-migration.js";
import { ROUTER_CATALOGUE_MIGRATION } from "../router/router-catalogue-migration.js";
import { SEARCH_MIGRATION } from "../search/search-migration.js";
import { SEARCH_RANK_MIGRATION } from "../search/search-rank-migration.js";
import { SEARCH_SPEED_MIGRATION } from "../search/search-speed-migration.js";
import { VIEWER_FULLTEXT_MIGRATION } from "../viewer/viewer-fulltext-migration.js";
import { VIEWER_INDEX_FILES_MIGRATION } from "../viewer/viewer-index-files-migration.js";
import { VIEWER_MIGRATION } from "../viewer/viewer-migration.js";
import { VIEWER_PARQUET_FILES_MIGRATION } from "../viewer/viewer-parquet-files-migration.js";
import { VIEWER_SEARCH_MIGRATION } from "../viewer/viewer-search-migration.js";
import { VIEWER_STATISTICS_MIGRATION } from "../viewer/viewer-statistics-migration.js";
import { WEBHOOKS_MIGRATION } from "../webhooks/webhooks-migration.js";
import type { Database, Dialect, Queryable } from "./database.js";
import { POSTGRES_BASELINE, POSTGRES_BASELINE_VERSION } from "./postgres-schema.js";

/**
 * A migration: its SQL (one text for both databases, or one per dialect where they differ), or code for what
 * SQL cannot compute (hashes), run in the migration's transaction.
 */
export type Migration =
  | string
  | { readonly sqlite: string; readonly postgres: string }
  | { readonly run: (tx: Queryable) => Promise<void> };

/**
 * Schema migrations, applied in order on start. SQLite records the last one applied in `PRAGMA
 * user_version`, PostgreSQL in the `schema_version` table. Never edit a released migration: append a new one.
 * A new PostgreSQL database starts from postgres-schema.ts (the schema at migration 7); later migrations run
 * on both databases (give the object form when the SQL differs).
 */
export const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE models (
    id TEXT PRIMARY KEY COLLATE NOCASE,
    object_id TEXT NOT NULL UNIQUE,
    author TEXT NOT NULL COLLATE NOCASE,
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
    downloads INTEGER NOT NULL DEFAULT 0,
    likes INTEGER NOT NULL DEFAULT 0,
    trending_score REAL NOT NULL DEFAULT 0,
    private INTEGER NOT NULL DEFAULT 0,
    gated TEXT,
    created_at TEXT NOT NULL,
    last_modified TEXT NOT NULL,
    card_text TEXT
  );
  CREATE INDEX models_by_downloads ON models (downloads, id);
  CREATE INDEX models_by_likes ON models (likes, id);
  CREATE INDEX models_by_trending ON models (trending_score, id);
  CREATE INDEX models_by_created ON models (created_at, id);
  CREATE INDEX models_by_modified ON models (last_modified, id);
  CREATE INDEX models_by_pipeline ON models (pipeline_tag);
  CREATE INDEX models_by_library ON models (library_name);

  CREATE TABLE provider_mappings (
    model_id TEXT NOT NULL COLLATE NOCASE REFERENCES models (id) ON DELETE CASCADE ON UPDATE CASCADE,
    provider TEXT NOT NULL,
    task TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('live', 'staging')),
    provider_id TEXT NOT NULL,
    PRIMARY KEY (model_id, provider)
  );
  CREATE INDEX provider_mappings_by_provider ON provider_mappings (provider, status);

  CREATE TABLE tokens (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    token_hint TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    last_used_at TEXT
  );

  CREATE TABLE usage (
    id INTEGER PRIMARY KEY,
    token_id INTEGER NOT NULL REFERENCES tokens (id),
    provider TEXT NOT NULL,
    model TEXT,
    status INTEGER NOT NULL,
    request_bytes INTEGER NOT NULL,
    response_bytes INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX usage_by_token ON usage (token_id, created_at);

  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  // Repositories (models, datasets, spaces) with git-shaped history. A model repository and its `models` row
  // share one id: the row is what listings show, the repository holds its files.
  `
  CREATE TABLE repos (
    id INTEGER PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('model', 'dataset', 'space')),
    name TEXT NOT NULL COLLATE NOCASE,
    owner TEXT NOT NULL COLLATE NOCASE,
    private INTEGER NOT NULL DEFAULT 0,
    gated TEXT CHECK (gated IN ('auto', 'manual')),
    created_at TEXT NOT NULL,
    last_modified TEXT NOT NULL,
    UNIQUE (type, name)
  );
  CREATE INDEX repos_by_owner ON repos (owner);
  CREATE TABLE repo_redirects (
    type TEXT NOT NULL,
    from_name TEXT NOT NULL COLLATE NOCASE,
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    PRIMARY KEY (type, from_name)
  );
  CREATE TABLE git_blobs (
    oid TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    lfs INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX git_blobs_by_sha256 ON git_blobs (sha256);
  CREATE TABLE commits (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
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
    repo_id INTEGER NOT NULL,
    commit_oid TEXT NOT NULL,
    path TEXT NOT NULL,
    blob_oid TEXT NOT NULL REFERENCES git_blobs (oid),
    PRIMARY KEY (repo_id, commit_oid, path),
    FOREIGN KEY (repo_id, commit_oid) REFERENCES commits (repo_id, oid) ON DELETE CASCADE
  ) WITHOUT ROWID;
  CREATE TABLE commit_trees (
    repo_id INTEGER NOT NULL,
    commit_oid TEXT NOT NULL,
    path TEXT NOT NULL,
    tree_oid TEXT NOT NULL,
    PRIMARY KEY (repo_id, commit_oid, path),
    FOREIGN KEY (repo_id, commit_oid) REFERENCES commits (repo_id, oid) ON DELETE CASCADE
  ) WITHOUT ROWID;
  CREATE TABLE refs (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    commit_oid TEXT NOT NULL,
    PRIMARY KEY (repo_id, name)
  ) WITHOUT ROWID;
  CREATE TABLE lfs_objects (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, sha256)
  ) WITHOUT ROWID;
  CREATE INDEX lfs_objects_by_sha256 ON lfs_objects (sha256);
  CREATE TABLE pull_requests (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    num INTEGER NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    author TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'closed', 'merged')),
    target_ref TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, num)
  );
  `,
  // 3: accounts. Users and organizations share one table because they share one namespace (a repository
  // owner is either); tokens become user access tokens; usage says who made each call and who paid.
  `
  CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('user', 'org')),
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    fullname TEXT NOT NULL DEFAULT '',
    email TEXT COLLATE NOCASE,
    password_hash TEXT,
    is_admin INTEGER NOT NULL DEFAULT 0,
    disabled_at TEXT,
    created_at TEXT NOT NULL
  );
  CREATE UNIQUE INDEX accounts_by_email ON accounts (email) WHERE email IS NOT NULL;

  CREATE TABLE memberships (
    org_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('read', 'write', 'admin')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (org_id, user_id)
  );
  CREATE INDEX memberships_by_user ON memberships (user_id);

  ALTER TABLE tokens ADD COLUMN user_id INTEGER REFERENCES accounts (id) ON DELETE CASCADE;
  ALTER TABLE tokens ADD COLUMN role TEXT NOT NULL DEFAULT 'read';
  ALTER TABLE tokens ADD COLUMN fine_grained TEXT;
  ALTER TABLE tokens ADD COLUMN expires_at TEXT;
  CREATE INDEX tokens_by_user ON tokens (user_id);

  -- Tokens made before accounts existed belong to a machine user; their scopes become the nearest role:
  -- "read" (which a read token also allows inference with), or inference alone as a fine-grained token.
  INSERT INTO accounts (kind, name, fullname, created_at)
    SELECT 'user', 'legacy-tokens', 'Tokens made before accounts', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE EXISTS (SELECT 1 FROM tokens);
  UPDATE tokens SET
    user_id = (SELECT id FROM accounts WHERE name = 'legacy-tokens'),
    role = CASE WHEN scopes LIKE '%"read"%' THEN 'read' ELSE 'fineGrained' END,
    fine_grained = CASE WHEN scopes LIKE '%"read"%' THEN NULL
      ELSE '{"canReadGatedRepos":false,"global":["inference.serverless.write"],"scoped":[]}' END;

  ALTER TABLE usage ADD COLUMN user_id INTEGER;
  ALTER TABLE usage ADD COLUMN bill_to_id INTEGER;
  CREATE INDEX usage_by_user ON usage (user_id, created_at);
  CREATE INDEX usage_by_bill_to ON usage (bill_to_id, created_at);

  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    csrf_token TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE INDEX sessions_by_user ON sessions (user_id);

  CREATE TABLE access_requests (
    repo_type TEXT NOT NULL CHECK (repo_type IN ('model', 'dataset', 'space')),
    repo_id TEXT NOT NULL COLLATE NOCASE,
    user_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
    fields TEXT,
    created_at TEXT NOT NULL,
    decided_at TEXT,
    decided_by INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    PRIMARY KEY (repo_type, repo_id, user_id)
  );

  CREATE TABLE invites (
    code_hash TEXT PRIMARY KEY,
    created_by INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    used_by INTEGER REFERENCES accounts (id) ON DELETE SET NULL
  );

  -- Failed sign-ins per key (user name, client address) in fixed windows: the rate limit every replica sees.
  CREATE TABLE sign_in_failures (
    key TEXT NOT NULL,
    window_start INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    PRIMARY KEY (key, window_start)
  );
  `,
  // 4: a model repository and its `models` row are one entity: removing the row (admin API, CLI) removes the
  // repository with it.
  `
  CREATE TRIGGER models_delete_repository AFTER DELETE ON models
  BEGIN
    DELETE FROM repos WHERE type = 'model' AND name = old.id;
  END;
  `,
  // 5: usage by day, kept as router calls are recorded: the admin pages read it, and the per-call rows it
  // summarizes can be pruned (USAGE_RETENTION_DAYS) without losing the totals. `model` is '' for none.
  `
  CREATE TABLE usage_daily (
    day TEXT NOT NULL,
    token_id INTEGER NOT NULL,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    requests INTEGER NOT NULL,
    errors INTEGER NOT NULL,
    request_bytes INTEGER NOT NULL,
    response_bytes INTEGER NOT NULL,
    total_ms INTEGER NOT NULL,
    PRIMARY KEY (day, token_id, provider, model)
  );
  INSERT INTO usage_daily
    SELECT substr(created_at, 1, 10), token_id, provider, ifnull(model, ''), count(*),
      sum(CASE WHEN status >= 400 OR status = 0 THEN 1 ELSE 0 END), sum(request_bytes), sum(response_bytes),
      sum(duration_ms)
    FROM usage GROUP BY 1, 2, 3, 4;
  CREATE INDEX usage_by_time ON usage (created_at);
  `,
  // 6: Xet storage: xorbs (kept in the blob store under their sha256), their chunks (for dedup queries and
  // reconstructions), files registered by shard uploads, and which repository registered each file (a Xet
  // token reads only its own repository's files).
  `
  CREATE TABLE xet_xorbs (
    hash TEXT PRIMARY KEY,
    blob_sha256 TEXT NOT NULL,
    size INTEGER NOT NULL,
    chunk_count INTEGER NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE xet_chunks (
    xorb_hash TEXT NOT NULL REFERENCES xet_xorbs (hash) ON DELETE CASCADE,
    chunk_index INTEGER NOT NULL,
    chunk_hash TEXT NOT NULL,
    byte_start INTEGER NOT NULL,
    byte_end INTEGER NOT NULL,
    unpacked_size INTEGER NOT NULL,
    PRIMARY KEY (xorb_hash, chunk_index)
  ) WITHOUT ROWID;
  CREATE INDEX xet_chunks_by_hash ON xet_chunks (chunk_hash);
  CREATE TABLE xet_files (
    hash TEXT PRIMARY KEY,
    sha256 TEXT,
    size INTEGER NOT NULL,
    terms TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX xet_files_by_sha256 ON xet_files (sha256);
  CREATE TABLE xet_file_repos (
    file_hash TEXT NOT NULL REFERENCES xet_files (hash) ON DELETE CASCADE,
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    PRIMARY KEY (file_hash, repo_id)
  ) WITHOUT ROWID;
  `,
  // 7: discussions and pull requests share one numbering per repository (as on the public hub), so the
  // pull_requests table becomes `discussions`. A pull request keeps the branch it targets and the commit it
  // started from (the base of its diff); its commits are read from `refs/pr/N`, not stored as events.
  // Events hold what is not in git: comments (`body`; `edits`: JSON list of earlier versions, newest first),
  // status changes (`body` = the new status) and title changes (`previous` -> `body`).
  `
  CREATE TABLE discussions (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    num INTEGER NOT NULL,
    is_pull_request INTEGER NOT NULL,
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
    id TEXT PRIMARY KEY,
    repo_id INTEGER NOT NULL,
    num INTEGER NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('comment', 'status-change', 'title-change')),
    author TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL,
    previous TEXT,
    hidden INTEGER NOT NULL DEFAULT 0,
    edits TEXT NOT NULL DEFAULT '[]',
    FOREIGN KEY (repo_id, num) REFERENCES discussions (repo_id, num) ON DELETE CASCADE
  );
  CREATE INDEX discussion_events_by_discussion ON discussion_events (repo_id, num, created_at);
  INSERT INTO discussions (repo_id, num, is_pull_request, title, author, status, target_ref, created_at)
    SELECT repo_id, num, 1, title, author, status, target_ref, created_at FROM pull_requests;
  INSERT INTO discussion_events (id, repo_id, num, type, author, created_at, body)
    SELECT 'pr' || repo_id || 'n' || num, repo_id, num, 'comment', author, created_at, description
    FROM pull_requests WHERE description <> '';
  DROP TABLE pull_requests;
  `,
  // 8: LoRA adapters in provider mappings (the public hub's `adapter`, `adapterWeightsPath`).
  `
  ALTER TABLE provider_mappings ADD COLUMN adapter TEXT;
  ALTER TABLE provider_mappings ADD COLUMN adapter_weights_path TEXT;
  `,
  // 9: organization invitations: a single-use link an org admin hands to someone, joining them with a role.
  `
  CREATE TABLE org_invites (
    code_hash TEXT PRIMARY KEY,
    org_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('read', 'write', 'admin')),
    created_by INTEGER REFERENCES accounts (id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT,
    used_by INTEGER REFERENCES accounts (id) ON DELETE SET NULL
  );
  CREATE INDEX org_invites_by_org ON org_invites (org_id);
  `,
  // 10: single sign-on: which account an OpenID Connect identity (issuer + subject) signs in to.
  `
  CREATE TABLE oidc_identities (
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (issuer, subject)
  );
  `,
  // 11: Xet garbage collection. A xorb no file uses is first marked (`deleting_since` = when); a later run
  // claims it (the time prefixed with "~", which sorts after every timestamp) and only then deletes its blob
  // and row. An upload or a shard that needs a marked xorb clears the mark; a claimed one is gone.
  `
  ALTER TABLE xet_xorbs ADD COLUMN deleting_since TEXT;
  CREATE INDEX xet_xorbs_by_deleting ON xet_xorbs (deleting_since);
  CREATE INDEX xet_xorbs_by_blob ON xet_xorbs (blob_sha256);
  `,
  // 12: each user's order of inference providers (Settings > Inference Providers; the router's `auto`).
  `
  CREATE TABLE provider_preferences (
    user_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    provider TEXT NOT NULL,
    PRIMARY KEY (user_id, position)
  );
  `,
  // 13: blob garbage collection asks which commits still hold a git blob.
  `
  CREATE INDEX commit_files_by_blob ON commit_files (blob_oid);
  `,
  // 14: the local apps that can run each model, computed from the record by @modelhub/tasks' rules when the
  // row is written (`,app1,app2,`): the `apps` filter is then a LIKE that runs on SQLite and PostgreSQL.
  // Existing rows are filled on open (local-apps.ts).
  `
  ALTER TABLE models ADD COLUMN local_apps TEXT;
  `,
  // 15: what a dataset's or space's card says, written on every commit to main (derive-repo-card.ts): the
  // front matter, the tags the listings filter on (`license:mit`, `language:en`, a space's SDK...), and a
  // space's SDK for its list row. Repositories committed before this are derived once at start (16).
  `
  ALTER TABLE repos ADD COLUMN card_data TEXT;
  ALTER TABLE repos ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE repos ADD COLUMN sdk TEXT;
  `,
  // 16: datasets and spaces committed before 15 get their card index once, from their README: a blob this
  // SQL cannot read, so it only leaves a note that the hub's start acts on (repos/repo-card-backfill.ts).
  `
  INSERT INTO meta (key, value) SELECT 'repo_cards_pending', '1'
  WHERE EXISTS (SELECT 1 FROM repos WHERE type <> 'model');
  `,
  // 17: less B-tree work per router call's usage row (3.4 -> 1.9 µs per recorded call, batches of 250): no
  // query reads per-call usage by token any more (totals come from usage_daily, reports are by user and by
  // organization), and only calls billed to an organization are reported by it (`bill_to_id = ?` and
  // `bill_to_id IS NOT NULL` both use a partial index).
  `
  DROP INDEX usage_by_token;
  DROP INDEX usage_by_bill_to;
  CREATE INDEX usage_by_bill_to ON usage (bill_to_id, created_at) WHERE bill_to_id IS NOT NULL;
  `,
  // 18: content belongs to repositories (docs/security.md). A Xet file's sha256 is trusted only once the hub
  // has hashed its reconstructed bytes (`sha256_checked`); files registered before are checked once at start
  // (lfs-xet/sha256-backfill.ts acts on the note). The parts of a multipart LFS upload are recorded per repository,
  // object and part as they arrive: a completion may only assemble parts uploaded through its own part URLs.
  `
  ALTER TABLE xet_files ADD COLUMN sha256_checked INTEGER NOT NULL DEFAULT 0;
  INSERT INTO meta (key, value) SELECT 'xet_sha256_pending', '1' WHERE EXISTS (SELECT 1 FROM xet_files);
  CREATE TABLE lfs_upload_parts (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    oid TEXT NOT NULL,
    part INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, oid, part, sha256)
  );
  CREATE INDEX lfs_upload_parts_by_sha256 ON lfs_upload_parts (sha256);
  `,
  // 19: commit snapshots as immutable tree nodes shared between a repository's commits (repos/tree-nodes.ts,
  // docs/decisions/tree-nodes.md): a commit writes the nodes of the folders it changes, not its whole file
  // list; each file entry holds its own sha256, size and LFS flag (no global first-writer-wins git blob rows).
  // `repo_contents` indexes what each repository's history holds (LFS copies, usage, GC references).
  {
    sqlite: `
  CREATE TABLE tree_nodes (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (repo_id, id)
  );
  CREATE TABLE repo_contents (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    sha256 TEXT NOT NULL,
    lfs INTEGER NOT NULL,
    size INTEGER NOT NULL,
    PRIMARY KEY (repo_id, sha256, lfs)
  ) WITHOUT ROWID;
  CREATE INDEX repo_contents_by_sha256 ON repo_contents (sha256);
  ALTER TABLE commits ADD COLUMN root_node TEXT;
  `,
    postgres: `
  CREATE TABLE tree_nodes (
    repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (repo_id, id)
  );
  CREATE TABLE repo_contents (
    repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    sha256 TEXT NOT NULL,
    lfs BIGINT NOT NULL,
    size BIGINT NOT NULL,
    PRIMARY KEY (repo_id, sha256, lfs)
  );
  CREATE INDEX repo_contents_by_sha256 ON repo_contents (sha256);
  ALTER TABLE commits ADD COLUMN root_node TEXT;
  `,
  },
  // 20: the commits made before 19 get their tree nodes and content index (hashes: code, not SQL).
  { run: convertSnapshotsToTreeNodes },
  // 21: the flat snapshots are converted; their tables go.
  `
  DROP TABLE commit_files;
  DROP TABLE commit_trees;
  DROP TABLE git_blobs;
  `,
  // 22: the mirror of an upstream hub (mirror/, docs/decisions/mirror.md). A mirrored repository is a local
  // repository flagged with the upstream it mirrors (`mirror_of`, its base URL); `mirror_refs` says when each
  // of its branch or tag names was last resolved upstream (re-resolved after MIRROR_REVISION_TTL);
  // `mirror_contents` the LFS content upstream declared for it (fetched on first read: `stored` once verified);
  // `mirror_xorb_chunks` which local chunk each upstream xorb chunk became (a new revision fetches only new
  // chunks).
  {
    sqlite: `
  ALTER TABLE repos ADD COLUMN mirror_of TEXT;
  CREATE TABLE mirror_refs (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    checked_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, name)
  ) WITHOUT ROWID;
  CREATE TABLE mirror_contents (
    sha256 TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    xet_hash TEXT,
    stored INTEGER NOT NULL DEFAULT 0,
    fetched_at TEXT,
    last_read_at TEXT
  ) WITHOUT ROWID;
  CREATE TABLE mirror_xorb_chunks (
    upstream_xorb TEXT NOT NULL,
    chunk_index INTEGER NOT NULL,
    chunk_hash TEXT NOT NULL,
    PRIMARY KEY (upstream_xorb, chunk_index)
  ) WITHOUT ROWID;
  `,
    postgres: `
  ALTER TABLE repos ADD COLUMN mirror_of TEXT;
  CREATE TABLE mirror_refs (
    repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    checked_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, name)
  );
  CREATE TABLE mirror_contents (
    sha256 TEXT PRIMARY KEY,
    size BIGINT NOT NULL,
    xet_hash TEXT,
    stored BIGINT NOT NULL DEFAULT 0,
    fetched_at TEXT,
    last_read_at TEXT
  );
  CREATE TABLE mirror_xorb_chunks (
    upstream_xorb TEXT NOT NULL,
    chunk_index BIGINT NOT NULL,
    chunk_hash TEXT NOT NULL,
    PRIMARY KEY (upstream_xorb, chunk_index)
  );
  `,
  },
  // 23: the content scanner's queue and reports (scanning/, docs/decisions/scanning.md). One row per content
  // and name class (`content_key`: sha256 and the file extension the scanners are chosen by): scanned once
  // however many paths and repositories hold it. `waiting` is a mirrored content not fetched yet; a replica
  // claims a `pending` row (or one whose lease expired) by setting `claimed_by` and `lease_until`.
  // `scan_allowances`: an owner's or admin's opt-in to serve one unsafe content of one repository under
  // SCAN_POLICY=block.
  {
    sqlite: `
  CREATE TABLE scan_queue (
    content_key TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL,
    name_class TEXT NOT NULL,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    repo_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('waiting', 'pending', 'scanning', 'done')),
    attempts INTEGER NOT NULL DEFAULT 0,
    verdict TEXT,
    report TEXT,
    rules_version TEXT,
    claimed_by TEXT,
    lease_until TEXT,
    queued_at TEXT NOT NULL,
    scanned_at TEXT
  ) WITHOUT ROWID;
  CREATE INDEX scan_queue_by_status ON scan_queue (status, lease_until);
  CREATE INDEX scan_queue_by_sha256 ON scan_queue (sha256);
  CREATE TABLE scan_allowances (
    repo_id INTEGER NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    sha256 TEXT NOT NULL,
    path TEXT NOT NULL,
    allowed_by TEXT NOT NULL,
    allowed_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, sha256)
  ) WITHOUT ROWID;
  `,
    postgres: `
  CREATE TABLE scan_queue (
    content_key TEXT PRIMARY KEY,
    sha256 TEXT NOT NULL,
    name_class TEXT NOT NULL,
    path TEXT NOT NULL,
    size BIGINT NOT NULL,
    repo_id BIGINT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('waiting', 'pending', 'scanning', 'done')),
    attempts BIGINT NOT NULL DEFAULT 0,
    verdict TEXT,
    report TEXT,
    rules_version TEXT,
    claimed_by TEXT,
    lease_until TEXT,
    queued_at TEXT NOT NULL,
    scanned_at TEXT
  );
  CREATE INDEX scan_queue_by_status ON scan_queue (status, lease_until);
  CREATE INDEX scan_queue_by_sha256 ON scan_queue (sha256);
  CREATE TABLE scan_allowances (
    repo_id BIGINT NOT NULL REFERENCES repos (id) ON DELETE CASCADE,
    sha256 TEXT NOT NULL,
    path TEXT NOT NULL,
    allowed_by TEXT NOT NULL,
    allowed_at TEXT NOT NULL,
    PRIMARY KEY (repo_id, sha256)
  );
  `,
  },
  // 24-28: each domain's own file, in this order (their comments say what they hold).
  COLLECTIONS_MIGRATION,
  VIEWER_MIGRATION,
  WEBHOOKS_MIGRATION,
  OWN_PROVIDERS_MIGRATION,
  GIT_MIGRATION,
  SEARCH_MIGRATION,
  LIMITS_MIGRATION,
  AUDIT_MIGRATION,
  ROUTER_CATALOGUE_MIGRATION,
  VIEWER_STATISTICS_MIGRATION,
  GIT_PUSH_MIGRATION,
  ENGAGEMENT_MIGRATION,
  CATALOGUE_COUNTERS_MIGRATION,
  ORG_PROVIDERS_MIGRATION,
  LOCAL_PROVIDER_MIGRATION,
  VIEWER_SEARCH_MIGRATION,
  REVISION_CACHE_MIGRATION,
  SEARCH_SPEED_MIGRATION,
  QUOTA_USAGE_MIGRATION,
  // 43-47 (37, 39 and 40 were released empty, so their domains' tables come here).
  ORG_OWN_PROVIDERS_MIGRATION,
  VIEWER_FULLTEXT_MIGRATION,
  LFS_FILES_MIGRATION,
  BUCKETS_MIGRATION,
  CATALOGUE_HONESTY_MIGRATION,
  // 48-49: search heads, viewer index files.
  SEARCH_RANK_MIGRATION,
  VIEWER_INDEX_FILES_MIGRATION,
  // 50-51: organization provider prices, viewer Parquet files.
  ORG_PROVIDER_PRICES_MIGRATION,
  VIEWER_PARQUET_FILES_MIGRATION,
];

const sqlOf = (migration: Exclude<Migration, { run: unknown }>, dialect: Dialect): string =>
  typeof migration === "string" ? migration : migration[dialect];

/** The number of migrations this database has applied. */
export async function appliedVersion(q: Queryable): Promise<number> {
  if (q.dialect === "sqlite") {
    return (await q.get<{ user_version: number }>("PRAGMA user_version"))!.user_version;
  }
  const table = await q.get<{ name: string | null }>("SELECT to_regclass('schema_version')::text AS name");
  if (!table?.name) return 0;
  return (await q.get<{ version: number }>("SELECT version FROM schema_version"))?.version ?? 0;
}

async function recordVersion(q: Queryable, version: number): Promise<void> {
  if (q.dialect === "sqlite") {
    await q.exec(`PRAGMA user_version = ${version}`);
    return;
  }
  await q.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  if ((await q.run("UPDATE schema_version SET version = ?", [version])) === 0) {
    await q.run("INSERT INTO schema_version (version) VALUES (?)", [version]);
  }
}

/** The lock every migrating process takes, so only one of several starting replicas applies each step. */
export const MIGRATION_LOCK = "modelhub:migrations";

export async function migrate(db: Database): Promise<number> {
  // Each step takes the write lock first (SQLite: BEGIN IMMEDIATE, which waits out busy_timeout;
  // PostgreSQL: an advisory lock) and reads the version under it: processes opening the same database at
  // once apply each migration exactly once.
  let more = true;
  while (more) {
    more = await db.transaction(
      async (tx) => {
        await tx.lock(MIGRATION_LOCK);
        const version = await appliedVersion(tx);
        if (version >= MIGRATIONS.length) return false;
        if (tx.dialect === "postgres" && version < POSTGRES_BASELINE_VERSION) {
          // A new PostgreSQL database starts at the baseline: the schema SQLite reached by then, at once.
          await tx.exec(POSTGRES_BASELINE);
          await recordVersion(tx, POSTGRES_BASELINE_VERSION);
          return true;
        }
        const migration = MIGRATIONS[version]!;
        if (typeof migration === "object" && "run" in migration) await migration.run(tx);
        else await tx.exec(sqlOf(migration, tx.dialect));
        await recordVersion(tx, version + 1);
        return true;
      },
      { immediate: true },
    );
  }
  return MIGRATIONS.length;
}
