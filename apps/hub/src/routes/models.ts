import { isPipelineType } from "@modelhub/tasks";
import { Hono } from "hono";
import { decodeCursor, encodeCursor } from "../api/cursor.js";
import { fieldsFor, modelView, needsMappings, parseExpand } from "../api/model-view.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { publicUrlOfRequest } from "../http/public-url.js";
import { queryBoolean, queryInteger, queryList, queryOne } from "../http/query.js";
import { modelIdFromParts } from "../model-id.js";
import { MODEL_SORTS, type ModelSort, sortValue } from "../store/models-table.js";
import type { Store } from "../store/store.js";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

const SORT_ALIASES: Record<string, ModelSort> = {
  trending: "trendingScore",
  recent: "lastModified",
  created: "createdAt",
  modified: "lastModified",
};

function parseSort(raw: string | undefined): ModelSort {
  if (raw === undefined) return "trendingScore";
  const sort = SORT_ALIASES[raw] ?? raw;
  if (!(MODEL_SORTS as readonly string[]).includes(sort)) {
    throw new InvalidInputError(
      `Invalid sort "${raw.slice(0, 40)}". Allowed: ${MODEL_SORTS.join(", ")}, trending.`,
    );
  }
  return sort as ModelSort;
}

function parseDirection(raw: string | undefined): 1 | -1 {
  if (raw === undefined || raw === "-1" || raw === "desc") return -1;
  if (raw === "1" || raw === "asc") return 1;
  throw new InvalidInputError("Invalid direction: use -1 (descending) or 1 (ascending).");
}

export interface ModelsRoutesDeps {
  store: Store;
}

/** `GET /api/models` and `GET /api/models/{owner}/{name}`, in the public hub's shapes. */
export function modelsRoutes({ store }: ModelsRoutesDeps) {
  const app = new Hono<HubEnv>();

  app.get("/", (c) => {
    const sort = parseSort(queryOne(c, "sort"));
    const direction = parseDirection(queryOne(c, "direction"));
    const limit = queryInteger(c, "limit", { min: 1, max: MAX_PAGE_SIZE }) ?? DEFAULT_PAGE_SIZE;
    const pipelineTag = queryOne(c, "pipeline_tag");
    if (pipelineTag !== undefined && !isPipelineType(pipelineTag)) {
      throw new InvalidInputError(`Unknown pipeline_tag "${pipelineTag.slice(0, 60)}".`);
    }
    const providers = [...queryList(c, "inference_provider"), ...queryList(c, "provider")];
    const cursorText = queryOne(c, "cursor");
    const expand = parseExpand(queryList(c, "expand"));
    const fields = fieldsFor("list", expand, queryBoolean(c, "full") ?? false);

    const { models, hasMore } = store.models.list({
      search: queryOne(c, "search"),
      author: queryOne(c, "author"),
      pipelineTag: pipelineTag as Parameters<typeof store.models.list>[0]["pipelineTag"],
      libraries: queryList(c, "library"),
      tags: queryList(c, "filter"),
      providers: providers.includes("all") ? "all" : providers,
      sort,
      direction,
      limit,
      after: cursorText ? decodeCursor(cursorText, sort, direction) : undefined,
    });

    const mappings = needsMappings(fields)
      ? store.mappings.forModels(models.map((model) => model.id))
      : undefined;
    const last = models[models.length - 1];
    if (hasMore && last) {
      const next = publicUrlOfRequest(c);
      next.searchParams.set(
        "cursor",
        encodeCursor({ sort, direction, value: sortValue(last, sort), id: last.id }),
      );
      c.header("Link", `<${next.toString()}>; rel="next"`);
    }
    return c.json(
      models.map((model) => modelView(model, fields, mappings?.get(model.id.toLowerCase()) ?? {})),
    );
  });

  app.get("/:owner/:name", (c) => {
    const id = modelIdFromParts(c.req.param("owner"), c.req.param("name"));
    const model = store.models.get(id);
    if (!model) throw new NotFoundError(`Model ${id} not found.`);
    const fields = fieldsFor("detail", parseExpand(queryList(c, "expand")), queryBoolean(c, "full") ?? false);
    const mappings = needsMappings(fields) ? store.mappings.forModel(model.id) : undefined;
    return c.json(modelView(model, fields, mappings));
  });

  return app;
}
