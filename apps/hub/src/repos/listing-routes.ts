import { type Context, Hono } from "hono";
import { visibility } from "../auth/authorize.js";
import { parseDirection, parseLimit, parseSort } from "../catalogue/listing-query.js";
import { InvalidInputError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { publicUrlOfRequest } from "../http/public-url.js";
import { queryBoolean, queryList, queryOne } from "../http/query.js";
import type { SearchService } from "../search/search-service.js";
import type { RepoType } from "./repo-records.js";
import {
  REPO_LIST_SORTS,
  type RepoListOrder,
  type RepoListRow,
  type RepoListSort,
  type ReposListingService,
} from "./repos-listing-service.js";

/**
 * Sorts the public hub offers that mean nothing here yet: datasets and spaces have no likes, downloads or
 * trending score on this hub (all 0), so these order by id, as a tie among equals does.
 */
const ZERO_SORTS = ["trendingScore", "trending", "likes", "likes30d", "downloads"];

/**
 * The tags a listing must carry: every `filter` value (huggingface_hub sends `list_datasets(language="en")`
 * as `filter=language:en`), and `language` / `license` as the `/api/models` parameters name them.
 */
function requiredTags(c: Context<HubEnv>): string[] {
  const values = (name: string) =>
    queryList(c, name)
      .flatMap((value) => value.split(","))
      .map((value) => value.trim())
      .filter(Boolean);
  return [
    ...new Set([
      ...values("filter"),
      ...values("language").map((language) => `language:${language}`),
      ...values("license").map((license) => `license:${license}`),
    ]),
  ];
}

function readSort(raw: string | undefined): RepoListSort {
  if (raw !== undefined && ZERO_SORTS.includes(raw)) return "id";
  return parseSort(raw, REPO_LIST_SORTS, "lastModified");
}

function encodeCursor(parts: [RepoListOrder, 1 | -1, string, string]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

function decodeCursor(
  text: string,
  sort: RepoListOrder,
  direction: 1 | -1,
): { value: string | number; id: string } {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    parts = undefined;
  }
  if (
    !Array.isArray(parts) ||
    parts.length !== 4 ||
    parts[0] !== sort ||
    parts[1] !== direction ||
    typeof parts[2] !== "string" ||
    typeof parts[3] !== "string"
  ) {
    throw new InvalidInputError("Invalid cursor for this sort: use the Link header of the previous page.");
  }
  // A relevance is a number: compared as one (SQLite orders any number before any text).
  return { value: sort === "relevance" ? Number(parts[2]) : parts[2], id: parts[3] };
}

function sortValue(row: RepoListRow, sort: RepoListOrder): string {
  if (sort === "relevance") return String(row.relevance ?? 0);
  return sort === "lastModified" ? row.lastModified : sort === "createdAt" ? row.createdAt : row.id;
}

/** One row as the public hub lists datasets and spaces (`DatasetInfo` / `SpaceInfo` of the clients). */
function rowView(row: RepoListRow) {
  return {
    _id: row.id,
    id: row.id,
    author: row.owner,
    private: row.private,
    gated: row.gated,
    disabled: false,
    likes: 0,
    downloads: 0,
    trendingScore: 0,
    tags: row.tags,
    ...(row.type === "space" ? { sdk: row.sdk ?? "static" } : {}),
    createdAt: row.createdAt,
    lastModified: row.lastModified,
  };
}

/**
 * `GET /api/datasets` and `GET /api/spaces`: `search` (id contains, any case, or a match of the search
 * index: words of the card, tags, a misspelt id; ranked best first unless a `sort` is given), `author`, `filter` (card
 * tags, all required), `language`, `license`, `gated`, `sort`
 * (`lastModified` default, `createdAt`, `id`), `direction`, `limit`, cursor pages through `Link`, and
 * `X-Total-Count`. Private repositories only for those who may see them, as in the models listing.
 */
export function repoListingRoutes(
  listing: ReposListingService,
  type: Exclude<RepoType, "model">,
  search?: SearchService,
) {
  const app = new Hono<HubEnv>();
  app.get("/", async (c) => {
    const rawSort = queryOne(c, "sort");
    const text = queryOne(c, "search");
    const ranked = text && search ? await search.rank(text, [type]) : undefined;
    // A search without a sort is ordered by relevance, best first.
    const sort: RepoListOrder = rawSort === undefined && text ? "relevance" : readSort(rawSort);
    // A sort where every value is 0 is id order, ascending, whatever the direction asked.
    const direction =
      sort === "relevance"
        ? -1
        : rawSort !== undefined && ZERO_SORTS.includes(rawSort)
          ? 1
          : parseDirection(queryOne(c, "direction"));
    const limit = parseLimit(queryOne(c, "limit"));
    const cursor = queryOne(c, "cursor");
    const filters = {
      type,
      search: text,
      searchRanked: ranked?.hits.map((hit) => hit.name),
      searchRankedHasAllContaining: ranked?.everyContaining,
      author: queryOne(c, "author"),
      visibleTo: visibility(c.get("actor"), type),
      tags: requiredTags(c),
      gated: queryBoolean(c, "gated"),
    };
    const { rows, hasMore } = await listing.list({
      ...filters,
      sort,
      direction,
      limit,
      after: cursor ? decodeCursor(cursor, sort, direction) : undefined,
    });
    c.header("X-Total-Count", String(await listing.count(filters)));
    const last = rows[rows.length - 1];
    if (hasMore && last) {
      const next = publicUrlOfRequest(c);
      next.searchParams.set("cursor", encodeCursor([sort, direction, sortValue(last, sort), last.id]));
      c.header("Link", `<${next.toString()}>; rel="next"`);
    }
    return c.json(rows.map(rowView));
  });
  return app;
}
