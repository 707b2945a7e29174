import { type Context, Hono } from "hono";
import { avatarPath } from "../accounts/public-shapes.js";
import { visibility } from "../auth/authorize.js";
import type { CatalogueService } from "../catalogue/catalogue-service.js";
import { InvalidInputError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { queryInteger, queryList, queryOne } from "../http/query.js";
import type { ReposListingService } from "../repos/repos-listing-service.js";
import type { SearchService, SearchType } from "./search-service.js";

export interface SearchRoutesDeps {
  search: SearchService;
  catalogue: CatalogueService;
  reposListing: ReposListingService;
}

const REPO_TYPES: readonly SearchType[] = ["model", "dataset", "space"];
const QUICK_TYPES = [...REPO_TYPES, "user", "org"] as const;
type QuickType = (typeof QUICK_TYPES)[number];

/** Repositories a full-text page ranks and pages through at most (the candidates' bound). */
const MAX_FULL_TEXT_HITS = 200;

function requestedTypes<T extends string>(c: Context, allowed: readonly T[]): T[] {
  const asked = queryList(c, "type");
  for (const type of asked) {
    if (!allowed.includes(type as T)) {
      throw new InvalidInputError(
        `Query parameter "type" must be one of ${allowed.join(", ")}; got "${type}".`,
      );
    }
  }
  return asked.length ? [...new Set(asked as T[])] : [...allowed];
}

interface VisibleHit {
  type: SearchType;
  id: string;
  objectId: string;
  owner: string;
  score: number;
  cardText?: string;
  tags: string[];
  private: boolean;
}

/**
 * The caller's view of a search: the ranked repositories of each type listed through the models and
 * repositories listings (which keep only what the caller may see), best first, and how many there are.
 */
async function visibleHits(
  deps: SearchRoutesDeps,
  c: Context<HubEnv>,
  query: string,
  types: readonly SearchType[],
  limit: number,
  typing: boolean,
): Promise<Map<SearchType, { hits: VisibleHit[]; count: number }>> {
  const { hits: ranked, everyContaining } = await deps.search.rank(query, types, { typing });
  const scores = new Map(ranked.map((hit) => [`${hit.type}\n${hit.name.toLowerCase()}`, hit.score]));
  const scoreOf = (type: SearchType, id: string) => scores.get(`${type}\n${id.toLowerCase()}`) ?? 0;
  const actor = c.get("actor");
  const result = new Map<SearchType, { hits: VisibleHit[]; count: number }>();
  for (const type of types) {
    const searchRanked = ranked.filter((hit) => hit.type === type).map((hit) => hit.name);
    const filters = {
      search: query,
      searchRanked,
      searchRankedHasAllContaining: everyContaining,
      visibleTo: visibility(actor, type),
    };
    if (type === "model") {
      const page = await deps.catalogue.list({ ...filters, sort: "relevance", direction: -1, limit });
      result.set(type, {
        count: await deps.catalogue.countMatching(filters),
        hits: page.models.map((model) => ({
          type,
          id: model.id,
          objectId: model.objectId,
          owner: model.author,
          score: scoreOf(type, model.id),
          ...(model.cardText !== undefined ? { cardText: model.cardText } : {}),
          tags: model.tags,
          private: model.private ?? false,
        })),
      });
    } else {
      const listing = { ...filters, type };
      const page = await deps.reposListing.list({ ...listing, sort: "relevance", direction: -1, limit });
      result.set(type, {
        count: await deps.reposListing.count(listing),
        hits: page.rows.map((row) => ({
          type,
          id: row.id,
          objectId: row.id,
          owner: row.owner,
          score: scoreOf(type, row.id),
          tags: row.tags,
          private: row.private,
        })),
      });
    }
  }
  return result;
}

/**
 * `GET /api/quicksearch` (the header's suggestions) and `GET /api/search/full-text` (the search page), in
 * the public hub's shapes. Repositories come through the listings, so a private one appears, and is
 * counted, only for those who may see it; users and organizations are public, as their pages are.
 */
export function searchRoutes(deps: SearchRoutesDeps) {
  const app = new Hono<HubEnv>();

  app.get("/quicksearch", async (c) => {
    const q = (queryOne(c, "q") ?? "").trim();
    const types = requestedTypes<QuickType>(c, QUICK_TYPES);
    const limit = queryInteger(c, "limit", { min: 1, max: 50 }) ?? 10;
    const body: Record<string, unknown> = { q };
    const repoTypes = REPO_TYPES.filter((type) => types.includes(type));
    // Suggestions while the query is typed: its last word may be the start of one.
    const repos = q ? await visibleHits(deps, c, q, repoTypes, limit, true) : new Map();
    for (const type of repoTypes) {
      const found = repos.get(type) ?? { hits: [], count: 0 };
      body[`${type}s`] = found.hits.map((hit: VisibleHit) => ({
        id: hit.id,
        _id: hit.objectId,
        ...(hit.private ? { private: true } : {}),
      }));
      body[`${type}sCount`] = found.count;
    }
    for (const kind of ["user", "org"] as const) {
      if (!types.includes(kind)) continue;
      const found = q ? await deps.search.accounts(q, kind, limit) : { rows: [], total: 0 };
      body[`${kind}s`] = found.rows.map((account) =>
        kind === "user"
          ? { user: account.name, fullname: account.fullname, avatarUrl: avatarPath(account.name) }
          : { name: account.name, fullname: account.fullname, avatarUrl: avatarPath(account.name) },
      );
      body[`${kind}sCount`] = found.total;
    }
    return c.json(body);
  });

  app.get("/search/full-text", async (c) => {
    const q = (queryOne(c, "q") ?? "").trim();
    const types = requestedTypes<SearchType>(c, REPO_TYPES);
    const limit = queryInteger(c, "limit", { min: 1, max: 100 }) ?? 10;
    const skip = queryInteger(c, "skip", { min: 0, max: MAX_FULL_TEXT_HITS }) ?? 0;
    if (!q) return c.json({ q, hits: [], numHits: 0, numTotalHits: 0 });
    const byType = await visibleHits(deps, c, q, types, MAX_FULL_TEXT_HITS, false);
    const all = [...byType.values()]
      .flatMap((found) => found.hits)
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const page = all.slice(skip, skip + limit);
    const texts = await deps.search.cardTexts(page.filter((hit) => hit.cardText === undefined));
    const terms = deps.search.terms(q);
    return c.json({
      q,
      hits: page.map((hit) => {
        const text = hit.cardText ?? texts.get(`${hit.type}\n${hit.id.toLowerCase()}`) ?? "";
        const passage = deps.search.cardPassage(text, terms);
        return {
          repoId: hit.id,
          repoType: hit.type,
          repoOwnerId: hit.owner,
          fileName: "README.md",
          isReadmeFile: true,
          private: hit.private,
          tags: hit.tags,
          text: passage.text,
          formatted: { text: passage.formatted },
        };
      }),
      numHits: page.length,
      numTotalHits: all.length,
    });
  });

  return app;
}
