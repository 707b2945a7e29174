/** Turns options into the script URL and the HTML a site owner pastes. Used by the web app's builder. */
import { WIDGET_SCRIPT_PATH } from "./data-api.js";
import { isDefaultOption, WIDGET_OPTION_NAMES, WIDGET_OPTIONS, type WidgetOptions } from "./options.js";

/**
 * `{hub}/widget/top-products.js?...` with only the options that differ from their defaults, in schema
 * order; flags that are on appear as bare names (`&noBorder`).
 */
export function buildScriptUrl(options: Partial<WidgetOptions>, hubUrl: string): string {
  const parts: string[] = [];
  for (const name of WIDGET_OPTION_NAMES) {
    const value = options[name];
    if (value === undefined || isDefaultOption(name, value)) continue;
    const kind = WIDGET_OPTIONS[name].kind;
    if (kind === "flag") {
      if (value === true) parts.push(name);
      continue;
    }
    const text = Array.isArray(value) ? value.join(",") : String(value);
    // Commas and slashes (legal in a query) stay readable in `permanent`; the rest is percent-encoded.
    parts.push(`${name}=${encodeURIComponent(text).replace(/%2C/g, ",").replace(/%2F/g, "/")}`);
  }
  const base = `${hubUrl.replace(/\/+$/, "")}${WIDGET_SCRIPT_PATH}`;
  return parts.length === 0 ? base : `${base}?${parts.join("&")}`;
}

/** The snippet to paste: a script tag (and the container element when `container` is set). */
export function buildEmbedCode(options: Partial<WidgetOptions>, hubUrl: string): string {
  const script = `<script src="${escapeHtmlAttribute(buildScriptUrl(options, hubUrl))}" async></script>`;
  return options.container ? `<div id="${escapeHtmlAttribute(options.container)}"></div>\n${script}` : script;
}

function escapeHtmlAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
