/** Finding the script's own tag, the hub it came from, and where to render. */
import { WIDGET_SCRIPT_PATH } from "../data-api.js";
import { DEV_HUB_URL, type WidgetOptions } from "../options.js";
import type { WidgetLogger } from "./logger.js";

/** Set on a script tag once a widget has been created for it, so two copies never claim the same tag. */
const CLAIMED_ATTRIBUTE = "data-modelhub-widget";

function isWidgetScript(element: Element | null): element is HTMLScriptElement {
  if (!(element instanceof HTMLScriptElement) || !element.src) return false;
  try {
    return new URL(element.src).pathname.endsWith(WIDGET_SCRIPT_PATH);
  } catch {
    return false;
  }
}

/**
 * The tag that loaded this copy of the script: `document.currentScript` while it runs synchronously (also
 * for `async` and injected tags), otherwise the first widget script tag not yet claimed.
 */
export function claimOwnScript(): HTMLScriptElement | undefined {
  const current = document.currentScript;
  const candidates = isWidgetScript(current)
    ? [current]
    : Array.from(document.querySelectorAll("script[src]")).filter(isWidgetScript);
  const script = candidates.find((candidate) => !candidate.hasAttribute(CLAIMED_ATTRIBUTE));
  script?.setAttribute(CLAIMED_ATTRIBUTE, "");
  return script;
}

/**
 * The hub to ask for data. Normally the origin (and path prefix) the script was served from; with
 * `devMode`, the `hub` option or the local development hub.
 */
export function resolveHubUrl(scriptSrc: string, options: WidgetOptions, log: WidgetLogger): string {
  if (options.devMode) return options.hub || DEV_HUB_URL;
  if (options.hub) log.warn("hub: only used with devMode; ignored");
  const url = new URL(scriptSrc);
  const prefix = url.pathname.slice(0, url.pathname.length - WIDGET_SCRIPT_PATH.length);
  return `${url.origin}${prefix}`;
}

function documentReady(): Promise<void> {
  if (document.readyState !== "loading") return Promise.resolve();
  return new Promise((resolve) =>
    document.addEventListener("DOMContentLoaded", () => resolve(), { once: true }),
  );
}

/**
 * Puts `host` into the page: inside the `container` element when one is named (waiting for the document if
 * it does not exist yet), else right after the script tag; a tag in <head> or detached renders at the end
 * of <body>.
 */
export async function placeHost(
  host: HTMLElement,
  script: HTMLScriptElement,
  options: WidgetOptions,
  log: WidgetLogger,
): Promise<void> {
  if (options.container) {
    let container = document.getElementById(options.container);
    if (!container) {
      await documentReady();
      container = document.getElementById(options.container);
    }
    if (container) {
      container.appendChild(host);
      log.info(`rendering into #${options.container}`);
      return;
    }
    log.warn(
      `container: no element with id ${JSON.stringify(options.container)}; rendering at the script tag`,
    );
  }
  const parent = script.parentNode;
  if (parent && parent !== document.head && document.body?.contains(script)) {
    parent.insertBefore(host, script.nextSibling);
    log.info("rendering where the script tag stands");
    return;
  }
  await documentReady();
  document.body.appendChild(host);
  log.info("script tag is not in <body>; rendering at the end of <body>");
}
