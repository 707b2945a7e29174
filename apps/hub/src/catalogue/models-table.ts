import { createHash } from "node:crypto";
import type { ModelData, PipelineType } from "@modelhub/tasks";
import { placeholders, type Queryable } from "../store/database.js";
import {
  jsonListContains,
  localAppsOf,
  type ModelFilters,
  modelFilterSql,
  NO_SCORE,
  searchScoreSql,
  sortExpression,
  type VisibleModels,
  visibilitySql,
} from "./model-filters.js";
import type { ModelListPage, ModelListQuery, StoredModel } from "./model-records.js";

export { MODEL_SORTS, type ModelSort } from "./model-filters.js";

export type { ModelListPage, ModelListQuery, StoredModel } from "./model-records.js";

interface ModelRow {
  id: string;
  object_id: string;
  author: string;
  pipeline_tag: string | null;
  library_name: string | null;
  tags: string;
  config: string | null;
  card_data: string | null;
  widget_data: string | null;
  transformers_info: string | null;
  siblings: string | null;
  gguf: string | null;
  safetensors: string | null;
  downloads: number;
  likes: number;
  trending_score: number;
  private: number;
  gated: string | null;
  created_at: string;
  last_modified: string;
  card_text: string | null;
  /** Only in listings: the value the page is sorted by. */
  sort_value?: string | number;
}

function json(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function parsed<T>(text: string | null): T | undefined {
  return text === null ? undefined : (JSON.parse(text) as T);
}

export function objectIdFor(modelId: string): string {
  return createHash("sha256").update(modelId.toLowerCase()).digest("hex").slice(0, 24);
}

function fromRow(row: ModelRow): StoredModel {
  const model: StoredModel = {
    id: row.id,
    objectId: row.object_id,
    author: row.author,
    tags: JSON.parse(row.tags) as string[],
    downloads: row.downloads,
    likes: row.likes,
    trendingScore: row.trending_score,
    private: row.private === 1,
    gated: row.gated === null ? false : (row.gated as "auto" | "manual"),
    createdAt: row.created_at,
    lastModified: row.last_modified,
  };
  if (row.pipeline_tag !== null) model.pipeline_tag = row.pipeline_tag as PipelineType;
  if (row.library_name !== null) model.library_name = row.library_name;
  const optional = {
    config: parsed<ModelData["config"]>(row.config),
    cardData: parsed<ModelData["cardData"]>(row.card_data),
    widgetData: parsed<ModelData["widgetData"]>(row.widget_data),
    transformersInfo: parsed<ModelData["transformersInfo"]>(row.transformers_info),
    siblings: parsed<ModelData["siblings"]>(row.siblings),
    gguf: parsed<ModelData["gguf"]>(row.gguf),
    safetensors: parsed<ModelData["safetensors"]>(row.safetensors),
    cardText: row.card_text ?? undefined,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) (model as unknown as Record<string, unknown>)[key] = value;
  }
  return model;
}

const UPSERT_MODEL = `
  INSERT INTO models (id, object_id, author, pipeline_tag, library_name, tags, config, card_data, widget_data,
    transformers_info, siblings, gguf, safetensors, downloads, likes, trending_score, private, gated,
    created_at, last_modified, card_text, local_apps)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET
    pipeline_tag = excluded.pipeline_tag, library_name = excluded.library_name, tags = excluded.tags,
    config = excluded.config, card_data = excluded.card_data, widget_data = excluded.widget_data,
    transformers_info = excluded.transformers_info, siblings = excluded.siblings, gguf = excluded.gguf,
    safetensors = excluded.safetensors, downloads = excluded.downloads, likes = excluded.likes,
    trending_score = excluded.trending_score, private = excluded.private, gated = excluded.gated,
    created_at = models.created_at, last_modified = excluded.last_modified, card_text = excluded.card_text,
    local_apps = excluded.local_apps`;
const MODEL_BY_ID = "SELECT * FROM models WHERE id = ?";

/** How many parsed records `shared()` keeps (a record is ~10 KB of JSON: ~20 MB at most). */
const SHARED_MODELS = 2_000;

/** Freezes `value` and everything it holds: a shared record must not change under its other readers. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Whether two rows of the models table hold the same values, column by column. */
function sameRow(a: ModelRow, b: ModelRow): boolean {
  for (const column in a) {
    if (a[column as keyof ModelRow] !== b[column as keyof ModelRow]) return false;
  }
  return true;
}

/** Queries over the models table. Bound parameters only. */
export function createModelsTable(q: Queryable, now: () => Date) {
  // Counts see only the models the caller may see (private ones of theirs included): a count must not
  // reveal that hidden models exist.
  const countRows = <T>(
    sql: (visible: string) => string,
    visible: VisibleModels | undefined,
    ...params: unknown[]
  ) => {
    const condition = visibilitySql(visible);
    return q.all<T>(sql(condition.where), [...params, ...condition.params]);
  };
  /** Visible models per value of a column (models without a value are not counted). */
  const countsBy = async (column: "library_name" | "pipeline_tag", visible: VisibleModels | undefined) => {
    const rows = await countRows<{ grouped: string; n: number }>(
      (where) =>
        `SELECT ${column} AS grouped, count(*) AS n FROM models WHERE ${column} IS NOT NULL AND ${where} GROUP BY ${column}`,
      visible,
    );
    return new Map(rows.map((row) => [row.grouped, row.n]));
  };

  // shared(): the last parsed record per model id, with the row it was parsed from.
  const parsedRows = new Map<string, { row: ModelRow; model: StoredModel }>();

  return {
    /**
     * Creates or replaces a model; returns the stored record. An existing model keeps its `createdAt` and
     * `_id`; a new one takes `objectId` (the public record's `_id`) when given, else one derived from its id.
     */
    async upsert(model: ModelData, objectId?: string): Promise<StoredModel> {
      const stamp = now().toISOString();
      const existing = await q.get<ModelRow>(MODEL_BY_ID, [model.id]);
      // An existing row keeps its canonical id casing; the case-insensitive primary key finds it either way.
      const id = existing?.id ?? model.id;
      const fields = {
        pipeline_tag: model.pipeline_tag ?? null,
        library_name: model.library_name ?? null,
        tags: JSON.stringify(model.tags),
        config: json(model.config),
        siblings: json(model.siblings),
        gguf: json(model.gguf),
      };
      await q.run(UPSERT_MODEL, [
        id,
        existing?.object_id ?? (objectId && /^[0-9a-f]{24}$/.test(objectId) ? objectId : objectIdFor(id)),
        id.split("/")[0]!,
        fields.pipeline_tag,
        fields.library_name,
        fields.tags,
        fields.config,
        json(model.cardData),
        json(model.widgetData),
        json(model.transformersInfo),
        fields.siblings,
        fields.gguf,
        json(model.safetensors),
        Math.round(model.downloads ?? 0),
        Math.round(model.likes ?? 0),
        model.trendingScore ?? 0,
        model.private ? 1 : 0,
        model.gated || null,
        model.createdAt ?? stamp,
        model.lastModified ?? stamp,
        model.cardText ?? null,
        localAppsOf(fields),
      ]);
      return fromRow((await q.get<ModelRow>(MODEL_BY_ID, [id]))!);
    },

    async get(id: string): Promise<StoredModel | undefined> {
      const row = await q.get<ModelRow>(MODEL_BY_ID, [id]);
      return row ? fromRow(row) : undefined;
    },

    /**
     * Model `id` as a frozen record that is the same object for as long as its row is unchanged: the row is
     * read every time (so a change made by any replica is seen at once) but parsed only when it differs from
     * the one last parsed. Answers computed from a record can be kept keyed by its identity
     * (repos/revision-answer-cache.ts). Read-only: use get() for a record to change.
     */
    async shared(id: string): Promise<StoredModel | undefined> {
      const row = await q.get<ModelRow>(MODEL_BY_ID, [id]);
      if (!row) return undefined;
      const key = row.id.toLowerCase();
      const last = parsedRows.get(key);
      if (last && sameRow(row, last.row)) return last.model;
      const model = deepFreeze(fromRow(row));
      parsedRows.delete(key);
      parsedRows.set(key, { row, model });
      if (parsedRows.size > SHARED_MODELS) parsedRows.delete(parsedRows.keys().next().value!);
      return model;
    },

    async delete(id: string): Promise<boolean> {
      return (await q.run("DELETE FROM models WHERE id = ?", [id])) > 0;
    },

    async count(): Promise<number> {
      return (await q.get<{ n: number }>("SELECT count(*) AS n FROM models"))!.n;
    },

    /** How many models name this one as their card's `base_model` (the public `childrenModelCount`). */
    async countChildren(id: string, visible?: VisibleModels): Promise<number> {
      const rows = await countRows<{ n: number }>(
        (
          where,
        ) => `SELECT count(*) AS n FROM models WHERE ${jsonListContains(q.dialect, "models.card_data", "base_model", true)}
          AND ${where}`,
        visible,
        id,
      );
      return rows[0]!.n;
    },

    countsByLibrary: (visible?: VisibleModels) => countsBy("library_name", visible),

    countsByPipeline: (visible?: VisibleModels) => countsBy("pipeline_tag", visible),

    /**
     * The widget's ranking: most downloaded first, optionally one owner's or exactly the given ids. Bound
     * parameters only; ids that do not exist are skipped.
     */
    async top(query: { limit: number; owner?: string; ids?: readonly string[] }) {
      const where: string[] = ["private = 0"];
      const params: unknown[] = [];
      if (query.owner) {
        where.push("author = ?");
        params.push(query.owner);
      }
      if (query.ids?.length) {
        where.push(`id IN (${placeholders(query.ids)})`);
        params.push(...query.ids);
      }
      params.push(query.limit);
      const rows = await q.all<Pick<ModelRow, "id" | "pipeline_tag" | "downloads" | "likes">>(
        `SELECT id, pipeline_tag, downloads, likes FROM models WHERE ${where.join(" AND ")}
           ORDER BY downloads DESC, id ASC LIMIT ?`,
        params,
      );
      return rows.map((row) => ({
        id: row.id,
        downloads: row.downloads,
        likes: row.likes,
        ...(row.pipeline_tag ? { pipeline_tag: row.pipeline_tag } : {}),
      }));
    },

    /** How many models match the filters, whatever the page: what a listing's `X-Total-Count` says. */
    async countMatching(filters: ModelFilters): Promise<number> {
      const { where, params, with: ranked } = modelFilterSql(q.dialect, filters);
      const sql = `${ranked?.sql ?? ""}SELECT count(*) AS n FROM models ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`;
      return Number((await q.get<{ n: number | string }>(sql, [...(ranked?.params ?? []), ...params]))!.n);
    },

    /** One page of models; fetches `limit + 1` rows so the caller knows whether another page exists. */
    async list(query: ModelListQuery): Promise<ModelListPage> {
      const { where, params, with: ranked, rankedOnly } = modelFilterSql(q.dialect, query);
      // Relevance: the search's rank (0 for a model matched by id substring only), best first.
      const scored =
        query.sort === "relevance" && ranked !== undefined
          ? searchScoreSql(q.dialect, "models.id", rankedOnly === true)
          : undefined;
      const sortBy =
        query.sort === "relevance" ? (scored?.score ?? NO_SCORE) : sortExpression(q.dialect, query.sort);
      const order = query.direction === -1 ? "DESC" : "ASC";
      if (query.after) {
        const comparison = query.direction === -1 ? "<" : ">";
        where.push(`(${sortBy} ${comparison} ? OR (${sortBy} = ? AND id > ?))`);
        params.push(query.after.value, query.after.value, query.after.id);
      }
      const filtered = where.length ? `WHERE ${where.join(" AND ")}` : "";
      // Ranked by the search: the page's ids are picked first from narrow rows (the id and visibility
      // columns, an index of migration 41), and only the page's whole rows read: a search can match
      // thousands of ids, and sorting their whole rows (cards included) was most of its cost.
      const sql =
        query.sort === "relevance"
          ? `${ranked?.sql ?? ""}SELECT models.*, p.page_value AS sort_value FROM (
               SELECT id AS page_id, ${sortBy} AS page_value
               FROM models ${scored?.join ?? ""} ${filtered}
               ORDER BY ${sortBy} ${order}, id ASC LIMIT ?
             ) p JOIN models ON models.id = p.page_id ORDER BY p.page_value ${order}, models.id ASC`
          : `${ranked?.sql ?? ""}SELECT *, ${sortBy} AS sort_value FROM models ${filtered}
             ORDER BY ${sortBy} ${order}, id ASC LIMIT ?`;
      params.push(query.limit + 1);
      const rows = await q.all<ModelRow>(sql, [...(ranked?.params ?? []), ...params]);
      const page = rows.slice(0, query.limit);
      const lastRow = page[page.length - 1];
      return {
        models: page.map(fromRow),
        hasMore: rows.length > query.limit,
        ...(lastRow ? { last: { value: lastRow.sort_value ?? 0, id: lastRow.id } } : {}),
      };
    },
  };
}

export type ModelsTable = ReturnType<typeof createModelsTable>;
