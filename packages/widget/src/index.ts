export {
  buildTopProductsQuery,
  modelPageUrl,
  type TopProduct,
  type TopProductsQuery,
  type TopProductsResponse,
  WIDGET_DATA_PATH,
  WIDGET_SCRIPT_PATH,
  WIDGET_SCRIPT_VERSION,
  WIDGET_SCRIPT_VERSIONS,
  type WidgetProduct,
} from "./data-api.js";
export { buildEmbedCode, buildScriptUrl } from "./embed-code.js";
export {
  DEV_HUB_URL,
  DIRECTIONS,
  defaultWidgetOptions,
  MAX_COLUMNS_LIMIT,
  MAX_PRODUCTS_LIMIT,
  MAX_TITLE_LENGTH,
  type ParsedWidgetOptions,
  parseWidgetOptions,
  THEMES,
  WIDGET_OPTION_NAMES,
  WIDGET_OPTIONS,
  type WidgetDirection,
  type WidgetOptionSpec,
  type WidgetOptions,
  type WidgetTheme,
} from "./options.js";
export { getTopProductsScript, type WidgetScript, WidgetScriptBuildError } from "./script-bundle.js";
