/**
 * The contract between the embedded script and the hub: paths, the data query, and the JSON answer.
 * DOM-free; bundled into the script and used by the server routes.
 */
import { MAX_PRODUCTS_LIMIT, MODEL_ID_PATTERN, OWNER_PATTERN } from "./options.js";

export const WIDGET_SCRIPT_PATH = "/widget/top-products.js";
export const WIDGET_DATA_PATH = "/api/widget/top-products";

/** The script version this source builds. A pinned embed (`?version=N`) gets N or a 404. */
export const WIDGET_SCRIPT_VERSION = "1";
export const WIDGET_SCRIPT_VERSIONS: readonly string[] = [WIDGET_SCRIPT_VERSION];

/** What the hub's ranking gives the widget: a subset of the hub's model record (ModelData). */
export interface TopProduct {
  /** owner/name */
  id: string;
  pipeline_tag?: string;
  downloads?: number;
  likes?: number;
}

/** One product as the data endpoint sends it. */
export interface WidgetProduct {
  id: string;
  owner: string;
  name: string;
  /** The model's page on the hub. */
  url: string;
  pipeline_tag?: string;
  downloads?: number;
  likes?: number;
}

export interface TopProductsResponse {
  /** Shape version of this JSON. */
  version: 1;
  hubUrl: string;
  products: WidgetProduct[];
}

/** What the script asks for; `ids` means a fixed selection in that order, `owner` one owner's models. */
export interface TopProductsQuery {
  limit: number;
  owner?: string;
  ids?: string[];
}

export function buildTopProductsQuery(query: TopProductsQuery): string {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.owner) params.set("owner", query.owner);
  if (query.ids && query.ids.length > 0) params.set("ids", query.ids.join(","));
  return params.toString();
}

export type QueryParseResult = { ok: true; query: TopProductsQuery } | { ok: false; problem: string };

/** Strict: the server answers 400 for anything the script would never send. */
export function parseTopProductsQuery(params: URLSearchParams): QueryParseResult {
  const limitText = params.get("limit") ?? "6";
  const limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_PRODUCTS_LIMIT)) {
    return { ok: false, problem: `limit must be a whole number from 1 to ${MAX_PRODUCTS_LIMIT}` };
  }
  const query: TopProductsQuery = { limit };
  const owner = params.get("owner");
  if (owner !== null && owner !== "") {
    if (!OWNER_PATTERN.test(owner)) return { ok: false, problem: "owner is not an owner name" };
    query.owner = owner;
  }
  const idsText = params.get("ids");
  if (idsText !== null && idsText !== "") {
    const ids = idsText.split(",");
    if (ids.length > MAX_PRODUCTS_LIMIT) {
      return { ok: false, problem: `ids lists more than ${MAX_PRODUCTS_LIMIT} models` };
    }
    const bad = ids.find((id) => !MODEL_ID_PATTERN.test(id));
    if (bad !== undefined) return { ok: false, problem: `ids: ${JSON.stringify(bad)} is not a model id` };
    query.ids = [...new Set(ids)];
  }
  return { ok: true, query };
}

/** The model page's URL on the hub: `{hub}/{owner}/{name}`, each segment percent-encoded. */
export function modelPageUrl(hubUrl: string, id: string): string {
  return `${hubUrl.replace(/\/+$/, "")}/${id.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * Applies the query's meaning to whatever the ranking returned, so the answer is right even if the
 * hub's `listTopModels` ignores a parameter: `ids` keeps exactly those models in that order, `owner` keeps
 * that owner's, `limit` caps the count.
 */
export function selectProducts(ranked: readonly TopProduct[], query: TopProductsQuery): TopProduct[] {
  let selected = ranked.filter((product) => typeof product?.id === "string");
  if (query.owner) selected = selected.filter((product) => ownerOf(product.id) === query.owner);
  if (query.ids) {
    const byId = new Map(selected.map((product) => [product.id, product]));
    selected = query.ids.flatMap((id) => byId.get(id) ?? []);
  }
  return selected.slice(0, query.limit);
}

export function ownerOf(id: string): string {
  const slash = id.indexOf("/");
  return slash === -1 ? "" : id.slice(0, slash);
}

export function toWidgetProduct(product: TopProduct, hubUrl: string): WidgetProduct {
  const owner = ownerOf(product.id);
  const result: WidgetProduct = {
    id: product.id,
    owner,
    name: owner === "" ? product.id : product.id.slice(owner.length + 1),
    url: modelPageUrl(hubUrl, product.id),
  };
  if (typeof product.pipeline_tag === "string") result.pipeline_tag = product.pipeline_tag;
  if (Number.isFinite(product.downloads)) result.downloads = product.downloads;
  if (Number.isFinite(product.likes)) result.likes = product.likes;
  return result;
}
