import {
  jsonListContains,
  NO_SCORE,
  searchMatchSql,
  searchRankedCte,
  searchScoreSql,
  type VisibleModels,
} from "../catalogue/model-filters.js";
import { indexedSearchMatchSql } from "../search/search-match-sql.js";
import { type Dialect, placeholders, type Queryable } from "../store/database.js";
import { type RepoRecord, type RepoRow, type RepoType, repoFromRow } from "./repos-table.js";

/** Orders a dataset or space listing can take (they have no likes, downloads or trending score here). */
export const REPO_LIST_SORTS = ["lastModified", "createdAt", "id"] as const;
export type RepoListSort = (typeof REPO_LIST_SORTS)[number];

/** A listing's order: one of the sorts, or (with `search`) the search index's ranking, best first. */
export type RepoListOrder = RepoListSort | "relevance";

const SORT_COLUMNS: Record<RepoListSort, string> = {
  lastModified: "last_modified",
  createdAt: "created_at",
  id: "name",
};

export interface RepoListQuery {
  type: RepoType;
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
  /** Which private repositories the caller may see (auth/authorize.ts `visibility`). */
  visibleTo: VisibleModels;
  /** Every one of these card tags (`tabular`, `license:mit`, `language:en`, a space's SDK...). */
  tags?: readonly string[];
  /** Gated repositories only (true) or ungated only (false). */
  gated?: boolean;
  sort: RepoListOrder;
  direction: 1 | -1;
  limit: number;
  /** Keyset position after the previous page's last row: its sort value and its id. */
  after?: { value: string | number; id: string };
}

/** A listed repository: its whole record (repos-table.ts), with its card's tags and a space's SDK. */
export type RepoListRow = RepoRecord & { tags: string[]; sdk?: string; relevance?: number };

type ListedRow = RepoRow & { tags: string; sdk: string | null; relevance: number | string };

/** The WHERE clause of a listing: type, visibility, search, author (names compare without case), tags, gating. */
function filterSql(dialect: Dialect, query: Omit<RepoListQuery, "sort" | "direction" | "limit" | "after">) {
  const where = ["type = ?"];
  const params: unknown[] = [query.type];
  const visible = query.visibleTo;
  if (!visible.all) {
    const parts = ["private = 0"];
    if (visible.owners.length) {
      // A mirrored repository belongs to no local account, even one named like its owner.
      parts.push(`(owner IN (${placeholders(visible.owners)}) AND mirror_of IS NULL)`);
      params.push(...visible.owners);
    }
    if (visible.repoIds.length) {
      parts.push(`name IN (${placeholders(visible.repoIds)})`);
      params.push(...visible.repoIds);
    }
    where.push(`(${parts.join(" OR ")})`);
  }
  const ranked = query.search && query.searchRanked?.length ? query.searchRanked : undefined;
  let rankedOnly = false;
  if (query.search && query.searchRanked) {
    // The search ran, so its index is current: it answers "the id contains" too (no scan).
    const match = indexedSearchMatchSql(dialect, query.type, "name", query.search, {
      ranked: ranked !== undefined,
      allContainingRanked: query.searchRankedHasAllContaining === true,
    });
    where.push(match.sql);
    params.push(...match.params);
    rankedOnly = match.rankedOnly;
  } else if (query.search) {
    where.push(searchMatchSql(dialect, "name", ranked));
    params.push(query.search);
  }
  if (query.author) {
    where.push("owner = ?");
    params.push(query.author);
  }
  for (const tag of query.tags ?? []) {
    where.push(jsonListContains(dialect, "repos.tags", undefined));
    params.push(tag);
  }
  if (query.gated !== undefined) where.push(query.gated ? "gated IS NOT NULL" : "gated IS NULL");
  return { where, params, rankedOnly, ...(ranked ? { with: searchRankedCte(ranked) } : {}) };
}

/**
 * `GET /api/datasets` and `/api/spaces` over the repos table: keyset pages ordered by the sort column, ties
 * by id (ids are unique per type without regard to case, so the order is total and pages never overlap).
 */
export function createReposListing(q: Queryable) {
  return {
    async list(query: RepoListQuery): Promise<{ rows: RepoListRow[]; hasMore: boolean }> {
      const { where, params, with: ranked, rankedOnly } = filterSql(q.dialect, query);
      // Relevance: the search's rank (0 for a repository matched by id substring only), best first.
      const scored =
        query.sort === "relevance" && ranked !== undefined
          ? searchScoreSql(q.dialect, "repos.name", rankedOnly)
          : undefined;
      const column = query.sort === "relevance" ? (scored?.score ?? NO_SCORE) : SORT_COLUMNS[query.sort];
      const order = query.direction === 1 ? "ASC" : "DESC";
      if (query.after) {
        const past = query.direction === 1 ? ">" : "<";
        if (column === "name") {
          where.push(`name ${past} ?`);
          params.push(query.after.id);
        } else {
          where.push(`(${column} ${past} ? OR (${column} = ? AND name > ?))`);
          params.push(query.after.value, query.after.value, query.after.id);
        }
      }
      const tie = column === "name" ? "" : ", name ASC";
      const fields = "id, type, name, owner, private, gated, created_at, last_modified, tags, sdk";
      // Ranked by the search: the page is picked from narrow rows first (the name and visibility columns,
      // an index of migration 41), then only its whole rows read (see models-table.ts `list`).
      const sql =
        query.sort === "relevance"
          ? `${ranked?.sql ?? ""}SELECT ${fields.replace(/(\w+)/g, "r.$1")}, p.page_value AS relevance FROM (
               SELECT id AS page_id, ${column} AS page_value
               FROM repos ${scored?.join ?? ""} WHERE ${where.join(" AND ")}
               ORDER BY ${column} ${order}${tie} LIMIT ?
             ) p JOIN repos r ON r.id = p.page_id ORDER BY p.page_value ${order}, r.name ASC`
          : `${ranked?.sql ?? ""}SELECT ${fields}, 0 AS relevance FROM repos
             WHERE ${where.join(" AND ")} ORDER BY ${column} ${order}${tie} LIMIT ?`;
      const rows = await q.all<ListedRow>(sql, [...(ranked?.params ?? []), ...params, query.limit + 1]);
      return {
        rows: rows.slice(0, query.limit).map((row) => ({
          ...repoFromRow(row),
          tags: JSON.parse(row.tags) as string[],
          ...(row.sdk ? { sdk: row.sdk } : {}),
          ...(query.sort === "relevance" ? { relevance: Number(row.relevance) } : {}),
        })),
        hasMore: rows.length > query.limit,
      };
    },

    /** How many repositories match the filters (whatever the page), for `X-Total-Count`. */
    async count(query: Omit<RepoListQuery, "sort" | "direction" | "limit" | "after">): Promise<number> {
      const { where, params, with: ranked } = filterSql(q.dialect, query);
      const row = await q.get<{ n: number | string }>(
        `${ranked?.sql ?? ""}SELECT count(*) AS n FROM repos WHERE ${where.join(" AND ")}`,
        [...(ranked?.params ?? []), ...params],
      );
      return Number(row?.n ?? 0);
    },
  };
}
