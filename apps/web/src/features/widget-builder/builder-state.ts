import { buildScriptUrl, parseWidgetOptions, type WidgetOptions } from "@modelhub/widget";

/**
 * The builder keeps its options in the page URL, in the very query syntax the script reads, so a
 * builder link and the embed code always agree: the widget package's own parser reads it back.
 */
export function readBuilderOptions(search: URLSearchParams): WidgetOptions {
  return parseWidgetOptions(search).options;
}

export function writeBuilderOptions(options: WidgetOptions): URLSearchParams {
  const scriptUrl = new URL(buildScriptUrl(options, "http://hub.invalid"));
  return scriptUrl.searchParams;
}
