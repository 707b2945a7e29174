export { acceptsGzip, etagMatches, isNotModified } from "./conditional.js";
export {
  DATA_CACHE_CONTROL,
  LATEST_SCRIPT_CACHE_CONTROL,
  PINNED_SCRIPT_CACHE_CONTROL,
  type WidgetRoutesDeps,
  widgetRoutes,
} from "./widget-routes.js";
