import { createHash } from "node:crypto";
import { LOCAL_APPS, type LocalApp, type ModelData, type PipelineType } from "@modelhub/tasks";
import { indexedSearchMatchSql } from "../search/search-match-sql.js";
import { type Dialect, placeholders } from "../store/database.js";

/** Every sort the public hub accepts for model listings. */
export const MODEL_SORTS = [
  "trendingScore",
  "likes30d",
  "downloads",
  "likes",
  "createdAt",
  "lastModified",
  "id",
  "num_parameters",
  "mainSize",
] as const;
export type ModelSort = (typeof MODEL_SORTS)[number];

/** A listing's order: one of the public sorts, or (with `search`) the search index's ranking, best first. */
export type ListingSort = ModelSort | "relevance";

/**
 * The search index's ranked ids (search/search-service.ts `rank`, best first) as
 * `search_ranked(ranked_name, ranked_score)`, put before a listing's SELECT: the best gets the highest score.
 * Bound parameters only. Its columns are named apart from any listed table's (`repos.name`), since a ranked
 * listing joins it (searchScoreJoin).
 */
export function searchRankedCte(ranked: readonly string[]): { sql: string; params: unknown[] } {
  const rows = ranked.map(() => "(?, CAST(? AS INTEGER))").join(", ");
  return {
    sql: `WITH search_ranked (ranked_name, ranked_score) AS (VALUES ${rows}) `,
    params: ranked.flatMap((name, i) => [name, ranked.length - i]),
  };
}

/** The score of a search that ranked nothing (not a bare `0`: ORDER BY 0 names a column). */
export const NO_SCORE = "coalesce(NULL, 0)";

/**
 * A ranked listing's score of each row (`column`, its id): the join to put after its FROM table and the
 * score expression (0 for a row the search matched by id substring only), bound to search_ranked.
 * - Every match ranked (`rankedOnly`: the search's ids are the whole match, search-match-sql.ts): an inner
 *   join, so both databases drive the page from the few hundred ranked ids, one index look-up each. The id
 *   column on the left: SQLite compares with its NOCASE collation and keeps the id index.
 * - Otherwise (ids containing the text are looked up too, thousands maybe) on PostgreSQL a left join (one
 *   hash of the ranked ids; the scalar subquery it replaced ran over the ranked list for every candidate),
 *   on SQLite that subquery, for which it builds an index of the ranked list (it scans the list per row
 *   in a left join).
 * The ranked ids are distinct (rankCandidates keeps one hit per id), so a join never repeats a row.
 */
export function searchScoreSql(
  dialect: Dialect,
  column: string,
  rankedOnly: boolean,
): { join: string; score: string } {
  const score = "coalesce(search_score.ranked_score, 0)";
  if (rankedOnly) {
    const name =
      dialect === "postgres" ? "CAST(search_score.ranked_name AS CITEXT)" : "search_score.ranked_name";
    return { join: `JOIN search_ranked search_score ON ${column} = ${name}`, score };
  }
  if (dialect === "postgres") {
    return {
      join: `LEFT JOIN search_ranked search_score ON search_score.ranked_name = CAST(${column} AS TEXT)`,
      score,
    };
  }
  return {
    join: "",
    score: `coalesce((SELECT max(ranked_score) FROM search_ranked r WHERE r.ranked_name = ${column}), 0)`,
  };
}

/** `search`: the id contains it (what huggingface_hub's clients rely on), or the search index ranked it. */
export function searchMatchSql(
  dialect: Dialect,
  column: string,
  ranked: readonly string[] | undefined,
): string {
  const contains =
    dialect === "sqlite" ? `instr(lower(${column}), lower(?)) > 0` : `strpos(lower(${column}), lower(?)) > 0`;
  if (!ranked?.length) return contains;
  const id = dialect === "postgres" ? `CAST(${column} AS TEXT)` : column;
  return `(${contains} OR ${id} IN (SELECT ranked_name FROM search_ranked))`;
}

/** The parameter count the safetensors or GGUF metadata reports (NULL when neither does). */
function parameterCount(dialect: Dialect): string {
  return dialect === "sqlite"
    ? "coalesce(json_extract(safetensors, '$.total'), json_extract(gguf, '$.total'))"
    : "coalesce((safetensors::jsonb ->> 'total')::double precision, (gguf::jsonb ->> 'total')::double precision)";
}

/**
 * The SQL expression each sort orders by. It never yields NULL (keyset pages compare with it).
 * - `likes30d`: this hub keeps no history of likes, so the likes a model has now stand for its last 30 days.
 * - `num_parameters`: the parameter count the safetensors or GGUF metadata reports, 0 when neither does.
 * - `mainSize`: the bytes of the model's files when the file list gives sizes, 0 when it does not.
 */
export function sortExpression(dialect: Dialect, sort: ModelSort): string {
  switch (sort) {
    case "trendingScore":
      return "trending_score";
    case "likes30d":
    case "likes":
      return "likes";
    case "downloads":
      return "downloads";
    case "createdAt":
      return "created_at";
    case "lastModified":
      return "last_modified";
    case "id":
      return "id";
    case "num_parameters":
      return `coalesce(${parameterCount(dialect)}, 0)`;
    case "mainSize":
      return dialect === "sqlite"
        ? "coalesce((SELECT sum(json_extract(f.value, '$.size')) FROM json_each(models.siblings) AS f), 0)"
        : `coalesce((SELECT sum((f.value ->> 'size')::double precision)
             FROM jsonb_array_elements(models.siblings::jsonb) AS f(value)), 0)`;
  }
}

/**
 * A condition true when the JSON text in `column` (at `key` of its object when given: a string or a list of
 * strings there) holds one of the next `count` bound parameters; `nocase` compares without case.
 */
export function jsonListContains(
  dialect: Dialect,
  column: string,
  key: string | undefined,
  nocase = false,
  count = 1,
): string {
  const list = count === 1 ? "= ?" : `IN (${placeholders(new Array(count).fill(0))})`;
  if (dialect === "sqlite") {
    const source = key ? `json_each(${column}, '$.${key}')` : `json_each(${column})`;
    return `EXISTS (SELECT 1 FROM ${source} AS j WHERE j.value ${nocase ? `COLLATE NOCASE ${list}` : list})`;
  }
  const value = key ? `(${column}::jsonb -> '${key}')` : `${column}::jsonb`;
  const elements = `jsonb_array_elements_text(CASE jsonb_typeof(${value}) WHEN 'array' THEN ${value}
    WHEN 'string' THEN jsonb_build_array(${value}) ELSE '[]'::jsonb END)`;
  const element = nocase ? "lower(j.value)" : "j.value";
  const compared = nocase ? list.replaceAll("?", "lower(?)") : list;
  return `EXISTS (SELECT 1 FROM ${elements} AS j(value) WHERE ${element} ${compared})`;
}

/**
 * Which private models a query may return (auth/authorize.ts `visibility(actor)`): every one, or those of
 * these owners and ids. Public models are always visible.
 */
export type VisibleModels =
  | { all: true }
  | { all: false; owners: readonly string[]; repoIds: readonly string[] };

/** Public models only: what anonymous callers see, and the default of every query. */
export const PUBLIC_ONLY: VisibleModels = { all: false, owners: [], repoIds: [] };

/** The condition (over `models`) keeping only what `visible` allows; undefined means public models only. */
export function visibilitySql(visible: VisibleModels | undefined): { where: string; params: unknown[] } {
  const v = visible ?? PUBLIC_ONLY;
  if (v.all) return { where: "1 = 1", params: [] };
  const parts = ["private = 0"];
  const params: unknown[] = [];
  if (v.owners.length > 0) {
    // A mirrored model belongs to no local account, even one named like its owner (docs/decisions/mirror.md).
    parts.push(
      `(author IN (${placeholders(v.owners)}) AND NOT EXISTS (SELECT 1 FROM repos ` +
        "WHERE repos.type = 'model' AND repos.name = models.id AND repos.mirror_of IS NOT NULL))",
    );
    params.push(...v.owners);
  }
  if (v.repoIds.length > 0) {
    parts.push(`id IN (${placeholders(v.repoIds)})`);
    params.push(...v.repoIds);
  }
  return { where: `(${parts.join(" OR ")})`, params };
}

/** What a model listing can be narrowed by; every field optional, all present ones must hold (AND). */
export interface ModelFilters {
  /** Private models the caller may see; undefined: public models only (fail closed). */
  visibleTo?: VisibleModels;
  /** Case-insensitive substring of the id, or (with `searchRanked`) a match of the search index. */
  search?: string;
  /**
   * The search index's ids for `search`, best first (search/search-service.ts); they match too. Given (even
   * empty), the index is current and also finds the ids containing `search`.
   */
  searchRanked?: readonly string[];
  /**
   * `searchRanked` holds every id containing `search` (search-service.ts `RankedSearch.everyContaining`):
   * the listing takes its "id contains" matches from it instead of looking them up in the index again.
   */
  searchRankedHasAllContaining?: boolean;
  author?: string;
  pipelineTag?: PipelineType | string;
  /** Any of these libraries. */
  libraries?: readonly string[];
  /** Every one of these tags. */
  tags?: readonly string[];
  /** Any of these languages (a tag, or the card's `language`). */
  languages?: readonly string[];
  /** Any of these licenses (a `license:` tag, or the card's `license`). */
  licenses?: readonly string[];
  /** true: gated models only; false: only models anyone can download. */
  gated?: boolean;
  /** Served live by any of these providers; "all" = by any provider. */
  providers?: readonly string[] | "all";
  /** Parameter count bounds, inclusive (models without a count never match). */
  numParameters?: { min?: number; max?: number };
  /** Runnable by any of these local apps, by the apps' own rules in @modelhub/tasks. */
  apps?: readonly string[];
}

/** The record fields the local apps' rules read, as stored in a `models` row (JSON text). */
export interface LocalAppsInput {
  pipeline_tag: string | null;
  library_name: string | null;
  tags: string;
  config: string | null;
  siblings: string | null;
  gguf: string | null;
}

/**
 * The local apps that can run a model, by the apps' own rules in @modelhub/tasks (functions of the record:
 * files, tags, config), as `,app1,app2,` (`,` for none). Stored in `models.local_apps` whenever a row's
 * fields change, so the `apps` filter is a plain `LIKE` on both databases instead of code run row by row.
 */
export function localAppsOf(row: LocalAppsInput): string {
  const model: ModelData = {
    id: "",
    tags: JSON.parse(row.tags) as string[],
    ...(row.pipeline_tag !== null ? { pipeline_tag: row.pipeline_tag as PipelineType } : {}),
    ...(row.library_name !== null ? { library_name: row.library_name } : {}),
    ...(row.config !== null ? { config: JSON.parse(row.config) } : {}),
    ...(row.siblings !== null ? { siblings: JSON.parse(row.siblings) } : {}),
    ...(row.gguf !== null ? { gguf: JSON.parse(row.gguf) } : {}),
  };
  const apps = LOCAL_APPS as Record<string, LocalApp>;
  const runs = Object.keys(apps).filter((key) => apps[key]!.displayOnModelPage(model));
  return `,${runs.join(",")},`;
}

/** Changes when the apps or their rules change (a new @modelhub/tasks): stored rows are then recomputed. */
export function localAppsRulesVersion(): string {
  const apps = LOCAL_APPS as Record<string, LocalApp>;
  const text = Object.keys(apps)
    .sort()
    .map((key) => `${key}:${apps[key]!.displayOnModelPage.toString()}`)
    .join("\n");
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** The WHERE conditions (over `models`) and their bound parameters for the given filters. */
export function modelFilterSql(
  dialect: Dialect,
  filters: ModelFilters,
): {
  where: string[];
  params: unknown[];
  with?: { sql: string; params: unknown[] };
  /** Only the ranked ids match `search` (searchScoreSql). */
  rankedOnly?: boolean;
} {
  const visibility = visibilitySql(filters.visibleTo);
  const where: string[] = [visibility.where];
  const params: unknown[] = [...visibility.params];
  const ranked = filters.search && filters.searchRanked?.length ? filters.searchRanked : undefined;
  let rankedOnly = false;
  if (filters.search && filters.searchRanked) {
    // The search ran, so its index is current: it answers "the id contains" too (no scan).
    const match = indexedSearchMatchSql(dialect, "model", "id", filters.search, {
      ranked: ranked !== undefined,
      allContainingRanked: filters.searchRankedHasAllContaining === true,
    });
    where.push(match.sql);
    params.push(...match.params);
    rankedOnly = match.rankedOnly;
  } else if (filters.search) {
    where.push(searchMatchSql(dialect, "id", ranked));
    params.push(filters.search);
  }
  if (filters.author) {
    where.push("author = ?");
    params.push(filters.author);
  }
  if (filters.pipelineTag) {
    where.push("pipeline_tag = ?");
    params.push(filters.pipelineTag);
  }
  if (filters.libraries?.length) {
    where.push(`library_name IN (${placeholders(filters.libraries)})`);
    params.push(...filters.libraries);
  }
  for (const tag of filters.tags ?? []) {
    where.push(jsonListContains(dialect, "models.tags", undefined));
    params.push(tag);
  }
  if (filters.languages?.length) {
    const n = filters.languages.length;
    where.push(
      `(${jsonListContains(dialect, "models.tags", undefined, false, n)}
        OR ${jsonListContains(dialect, "models.card_data", "language", false, n)})`,
    );
    params.push(...filters.languages, ...filters.languages);
  }
  if (filters.licenses?.length) {
    const n = filters.licenses.length;
    where.push(
      `(${jsonListContains(dialect, "models.tags", undefined, false, n)}
        OR ${jsonListContains(dialect, "models.card_data", "license", false, n)})`,
    );
    params.push(...filters.licenses.map((license) => `license:${license}`), ...filters.licenses);
  }
  if (filters.gated !== undefined) where.push(filters.gated ? "gated IS NOT NULL" : "gated IS NULL");
  if (filters.providers === "all") {
    where.push(
      "EXISTS (SELECT 1 FROM provider_mappings p WHERE p.model_id = models.id AND p.status = 'live')",
    );
  } else if (filters.providers?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM provider_mappings p WHERE p.model_id = models.id AND p.status = 'live' AND p.provider IN (${placeholders(filters.providers)}))`,
    );
    params.push(...filters.providers);
  }
  if (filters.numParameters) {
    if (filters.numParameters.min !== undefined) {
      where.push(`${parameterCount(dialect)} >= ?`);
      params.push(filters.numParameters.min);
    }
    if (filters.numParameters.max !== undefined) {
      where.push(`${parameterCount(dialect)} <= ?`);
      params.push(filters.numParameters.max);
    }
  }
  if (filters.apps?.length) {
    where.push(`(${filters.apps.map(() => "local_apps LIKE ? ESCAPE '\\'").join(" OR ")})`);
    params.push(...filters.apps.map((app) => `%,${app.replace(/[\\%_]/g, (c) => `\\${c}`)},%`));
  }
  return { where, params, rankedOnly, ...(ranked ? { with: searchRankedCte(ranked) } : {}) };
}
