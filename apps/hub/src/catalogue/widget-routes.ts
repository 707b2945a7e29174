/**
 * `GET /widget/top-products.js` (the embeddable script, cached with validators) and
 * `GET /api/widget/top-products` (its data, CORS `*`). The routes live in @modelhub/widget/server so the
 * widget's own browser tests run against the same code; mount with absolute paths:
 *
 *   app.route("/", widgetRoutes({ listTopModels: (opts) => catalogue.top(opts), hubUrl }));
 *
 * before any catch-all (the web app's client-side routes).
 */
export type { TopProduct, TopProductsQuery } from "@modelhub/widget";
export { type WidgetRoutesDeps, widgetRoutes } from "@modelhub/widget/server";
