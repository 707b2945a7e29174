import { Hono } from "hono";
import type { HubEnv } from "../http/hub-env.js";
import { streamJsonArray } from "../http/json-stream.js";
import { publicUrlOfRequest } from "../http/public-url.js";
import { queryBoolean, queryList, queryOne } from "../http/query.js";
import type { SearchService } from "../search/search-service.js";
import type { CatalogueService } from "./catalogue-service.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import {
  MAX_DETAILED_PAGE_SIZE,
  MAX_PAGE_SIZE,
  parseDirection,
  parseLimit,
  parseModelFilters,
  parseSort,
} from "./listing-query.js";
import { type ListingSort, MODEL_SORTS } from "./model-filters.js";
import { visibleModels } from "./model-lookup.js";
import {
  type ExpandField,
  fieldsFor,
  isDetailedListing,
  modelView,
  needsMappings,
  parseExpand,
} from "./model-view.js";
import { modelOfRoute } from "./route-model.js";

export interface ModelsRoutesDeps {
  catalogue: CatalogueService;
  /** Ranks `search=` by the search index (words of the card, tags, a misspelt id); without it, ids only. */
  search?: SearchService;
}

/** `GET /api/models` and `GET /api/models/{owner}/{name}`, in the public hub's shapes. */
export function modelsRoutes({ catalogue, search }: ModelsRoutesDeps) {
  const app = new Hono<HubEnv>();

  app.get("/", async (c) => {
    const parsed = parseModelFilters(c);
    const ranked = parsed.search && search ? await search.rank(parsed.search, ["model"]) : undefined;
    const filters = {
      ...parsed,
      searchRanked: ranked?.hits.map((hit) => hit.name),
      searchRankedHasAllContaining: ranked?.everyContaining,
    };
    // `search` without a sort: the search's order, best first (a sort given keeps its order).
    const rawSort = queryOne(c, "sort");
    const sort: ListingSort =
      rawSort === undefined && parsed.search ? "relevance" : parseSort(rawSort, MODEL_SORTS, "trendingScore");
    const direction = sort === "relevance" ? -1 : parseDirection(queryOne(c, "direction"));
    const cursorText = queryOne(c, "cursor");
    // `config=true` and `cardData=true` add those fields to the default or `full` set (older clients).
    const extra: ExpandField[] = [];
    if (queryBoolean(c, "config")) extra.push("config");
    if (queryBoolean(c, "cardData")) extra.push("cardData");
    const fields = fieldsFor(
      "list",
      parseExpand(queryList(c, "expand"), "list"),
      queryBoolean(c, "full") ?? false,
      extra,
    );
    const limit = parseLimit(
      queryOne(c, "limit"),
      isDetailedListing(fields) ? MAX_DETAILED_PAGE_SIZE : MAX_PAGE_SIZE,
    );

    const { models, hasMore, last } = await catalogue.list({
      ...filters,
      visibleTo: visibleModels(c),
      sort,
      direction,
      limit,
      after: cursorText ? decodeCursor(cursorText, sort, direction) : undefined,
    });

    const mappings = needsMappings(fields)
      ? await catalogue.mappingsOfModels(models.map((model) => model.id))
      : undefined;
    // Not on the public hub: how many models match, for a page that says so (the web app's list).
    c.header(
      "X-Total-Count",
      String(await catalogue.countMatching({ ...filters, visibleTo: visibleModels(c) })),
    );
    if (hasMore && last) {
      const next = publicUrlOfRequest(c);
      next.searchParams.set("cursor", encodeCursor({ sort, direction, ...last }));
      c.header("Link", `<${next.toString()}>; rel="next"`);
    }
    const demoCopies =
      fields.includes("createdAt") || fields.includes("lastModified")
        ? await catalogue.demoCopiesOf(models.map((model) => model.id))
        : undefined;
    return streamJsonArray(c, models, (model) =>
      modelView(model, fields, {
        mappings: mappings?.get(model.id.toLowerCase()) ?? {},
        demoCopy: demoCopies?.get(model.id.toLowerCase()),
      }),
    );
  });

  app.get("/:owner/:name", async (c) => {
    const model = await modelOfRoute(c, catalogue);
    const fields = fieldsFor(
      "detail",
      parseExpand(queryList(c, "expand"), "detail"),
      queryBoolean(c, "full") ?? false,
    );
    const mappings = needsMappings(fields)
      ? await catalogue.mappingsFor(c.get("actor"), model.id)
      : undefined;
    return c.json(
      modelView(model, fields, {
        mappings,
        demoCopy: (await catalogue.demoCopiesOf([model.id])).get(model.id.toLowerCase()),
        childrenModelCount: fields.includes("childrenModelCount")
          ? await catalogue.countChildren(model.id, visibleModels(c))
          : undefined,
      }),
    );
  });

  return app;
}
