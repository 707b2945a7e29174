/** Fetching the products from the hub and checking the answer before anything renders it. */
import { buildTopProductsQuery, WIDGET_DATA_PATH, type WidgetProduct } from "../data-api.js";
import type { WidgetOptions } from "../options.js";

const REQUEST_TIMEOUT_MS = 10_000;

export class ProductsUnavailableError extends Error {
  override readonly name = "ProductsUnavailableError";
}

export function productsRequestUrl(hubUrl: string, options: WidgetOptions): string {
  const ids = options.permanent;
  const query = buildTopProductsQuery({
    limit: ids.length > 0 ? Math.min(ids.length, options.maxProducts) : options.maxProducts,
    owner: options.owned || undefined,
    ids: ids.length > 0 ? ids.slice(0, options.maxProducts) : undefined,
  });
  return `${hubUrl}${WIDGET_DATA_PATH}?${query}`;
}

export async function loadProducts(url: string): Promise<WidgetProduct[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch(url, { mode: "cors", credentials: "omit", signal: abort.signal });
    if (!response.ok) throw new ProductsUnavailableError(`the hub answered ${response.status}`);
    return readProducts(await response.json());
  } catch (error) {
    if (error instanceof ProductsUnavailableError) throw error;
    throw new ProductsUnavailableError(`request failed: ${String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

const isText = (value: unknown): value is string => typeof value === "string";
const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;

/** Keeps only well-formed products; links must be http(s) so no `javascript:` URL can be planted. */
export function readProducts(body: unknown): WidgetProduct[] {
  const list = (body as { products?: unknown } | null)?.products;
  if (!Array.isArray(list)) throw new ProductsUnavailableError("the answer has no product list");
  const products: WidgetProduct[] = [];
  for (const item of list as Record<string, unknown>[]) {
    if (!item || !isText(item.id) || !isText(item.name) || !isText(item.owner) || !isText(item.url)) continue;
    if (!isHttpUrl(item.url)) continue;
    const product: WidgetProduct = { id: item.id, owner: item.owner, name: item.name, url: item.url };
    if (isText(item.pipeline_tag)) product.pipeline_tag = item.pipeline_tag;
    if (isCount(item.downloads)) product.downloads = item.downloads;
    if (isCount(item.likes)) product.likes = item.likes;
    products.push(product);
  }
  return products;
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}
