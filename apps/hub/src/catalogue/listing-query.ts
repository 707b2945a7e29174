import type { Context } from "hono";
import { InvalidInputError } from "../errors.js";
import { queryBoolean, queryList, queryOne } from "../http/query.js";
import type { ModelFilters } from "./model-filters.js";
import { parseNumParameters } from "./num-parameters.js";

/**
 * The query of a repository listing (`GET /api/models`, and `/api/datasets` and `/api/spaces` with the same
 * parameters), read as the public hub reads it. Parameters it does not know are ignored, as the public hub
 * ignores them; a known one with a value it cannot take is a 400, never silently dropped.
 */

export const DEFAULT_PAGE_SIZE = 50;
/** The public hub's largest page: a larger `limit` gets pages of this size and a `Link` to the next one. */
export const MAX_PAGE_SIZE = 1000;
/**
 * The largest page when a listing asks for more than the default fields (`full=true`, `expand[]`): a full
 * model is ~1.5 KB of JSON, so 32 clients asking for 1000 of them at once held ~1.9 GB; clients page on
 * through `Link` (huggingface_hub and @huggingface/hub do) and get the same models in the same order.
 */
export const MAX_DETAILED_PAGE_SIZE = 100;

/** Sorts as the clients spell them: huggingface_hub before 0.24 sent snake_case, the web UI short names. */
const SORT_ALIASES: Record<string, string> = {
  trending: "trendingScore",
  trending_score: "trendingScore",
  recent: "lastModified",
  modified: "lastModified",
  last_modified: "lastModified",
  created: "createdAt",
  created_at: "createdAt",
  likes_30d: "likes30d",
  numParameters: "num_parameters",
  main_size: "mainSize",
};

export function parseSort<S extends string>(raw: string | undefined, sorts: readonly S[], fallback: S): S {
  if (raw === undefined) return fallback;
  const sort = SORT_ALIASES[raw] ?? raw;
  if (!(sorts as readonly string[]).includes(sort)) {
    throw new InvalidInputError(`Invalid sort "${raw.slice(0, 40)}". Allowed: ${sorts.join(", ")}.`);
  }
  return sort as S;
}

/** `-1` (default, descending) or `1`; also `desc`/`asc`. */
export function parseDirection(raw: string | undefined): 1 | -1 {
  if (raw === undefined || raw === "-1" || raw === "desc") return -1;
  if (raw === "1" || raw === "asc") return 1;
  throw new InvalidInputError("Invalid direction: use -1 (descending) or 1 (ascending).");
}

/** A positive integer; above MAX_PAGE_SIZE the page is MAX_PAGE_SIZE long (clients page on through `Link`). */
export function parseLimit(raw: string | undefined, max = MAX_PAGE_SIZE): number {
  if (raw === undefined) return Math.min(DEFAULT_PAGE_SIZE, max);
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) {
    throw new InvalidInputError('Query parameter "limit" must be a positive integer.');
  }
  return Math.min(Number(raw), max);
}

/** Filters every repository listing takes: `search`, `author`, `filter` (tags, all of), `gated`. */
function repoFilters(c: Context) {
  return {
    search: queryOne(c, "search"),
    author: queryOne(c, "author"),
    tags: queryList(c, "filter"),
    gated: queryBoolean(c, "gated"),
    languages: queryList(c, "language"),
    licenses: queryList(c, "license"),
  };
}

/** The filters of `GET /api/models`. */
export function parseModelFilters(c: Context): ModelFilters {
  const providers = [...queryList(c, "inference_provider"), ...queryList(c, "provider")];
  // `inference=warm`: served right now by some provider, which is what `inference_provider=all` asks.
  const inference = queryOne(c, "inference");
  if (inference !== undefined && inference !== "warm") {
    throw new InvalidInputError('Query parameter "inference" must be "warm".');
  }
  const numParameters = queryOne(c, "num_parameters");
  return {
    ...repoFilters(c),
    pipelineTag: queryOne(c, "pipeline_tag"),
    libraries: queryList(c, "library"),
    providers:
      providers.includes("all") || (providers.length === 0 && inference === "warm") ? "all" : providers,
    numParameters: numParameters === undefined ? undefined : parseNumParameters(numParameters),
    apps: queryList(c, "apps"),
  };
}
