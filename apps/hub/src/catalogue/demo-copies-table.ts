import { placeholders, type Queryable } from "../store/database.js";

/** A demo copy as its pages show it: where the original is, its sourced creation date, the source's figures. */
export interface DemoCopy {
  repoKey: number;
  modelId: string;
  /** The original model's page (huggingface.co). */
  originalUrl: string;
  /** The original's creation date when the catalogue sourced it; undefined: no one knows it here. */
  originalCreatedAt?: string;
  /** Downloads and likes the catalogue record brought from its source, labelled with that source. */
  figures?: { source: string; downloads: number; likes: number };
}

interface DemoCopyRow {
  repo_id: number | string;
  model_id: string;
  original_url: string;
  original_created_at: string | null;
  source: string | null;
  downloads: number | string | null;
  likes: number | string | null;
}

/**
 * Demo copies whose main branch is still the commit that made them: a commit made on this hub since turns the
 * repository into this hub's own (its dates and counts are then its own, and no mirror replaces it).
 */
const UNTOUCHED = `
  SELECT demo_copies.repo_id, repos.name AS model_id, demo_copies.original_url,
    demo_copies.original_created_at, figures.source, figures.downloads, figures.likes
  FROM demo_copies
  JOIN repos ON repos.id = demo_copies.repo_id
  JOIN refs ON refs.repo_id = demo_copies.repo_id AND refs.name = 'refs/heads/main'
    AND refs.commit_oid = demo_copies.seeded_commit
  LEFT JOIN model_source_figures figures ON figures.model_id = repos.name`;

function fromRow(row: DemoCopyRow): DemoCopy {
  return {
    repoKey: Number(row.repo_id),
    modelId: row.model_id,
    originalUrl: row.original_url,
    ...(row.original_created_at ? { originalCreatedAt: row.original_created_at } : {}),
    ...(row.source !== null
      ? { figures: { source: row.source, downloads: Number(row.downloads), likes: Number(row.likes) } }
      : {}),
  };
}

/** Which repositories are demo copies of catalogue models (migration 47). */
export function createDemoCopiesTable(q: Queryable) {
  return {
    /** Records that `repoKey` is the demo copy made by `seededCommit`. */
    async record(copy: {
      repoKey: number;
      originalUrl: string;
      seededCommit: string;
      originalCreatedAt?: string;
    }): Promise<void> {
      await q.run(
        `INSERT INTO demo_copies (repo_id, original_url, seeded_commit, original_created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (repo_id) DO NOTHING`,
        [copy.repoKey, copy.originalUrl, copy.seededCommit, copy.originalCreatedAt ?? null],
      );
    },

    /** The untouched demo copy that repository `repoKey` is, if it is one. */
    async untouched(repoKey: number): Promise<DemoCopy | undefined> {
      const row = await q.get<DemoCopyRow>(`${UNTOUCHED} WHERE demo_copies.repo_id = ?`, [repoKey]);
      return row ? fromRow(row) : undefined;
    },

    /** The untouched demo copies among models `modelIds` (a listing's page), keyed by lower-cased id. */
    async untouchedOfModels(modelIds: readonly string[]): Promise<Map<string, DemoCopy>> {
      if (!modelIds.length) return new Map();
      const rows = await q.all<DemoCopyRow>(
        `${UNTOUCHED} WHERE repos.type = 'model' AND repos.name IN (${placeholders(modelIds)})`,
        modelIds,
      );
      return new Map(rows.map((row) => [row.model_id.toLowerCase(), fromRow(row)]));
    },
  };
}

export type DemoCopiesTable = ReturnType<typeof createDemoCopiesTable>;
