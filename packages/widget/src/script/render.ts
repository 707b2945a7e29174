/**
 * Building the widget's DOM inside a shadow root. Every piece of text goes through textContent or an
 * attribute setter, never through HTML parsing, so names and titles cannot inject markup.
 */
import type { WidgetProduct } from "../data-api.js";
import type { WidgetOptions } from "../options.js";
import type { WidgetLogger } from "./logger.js";
import { WIDGET_CSS } from "./styles.js";

export const HOST_TAG = "modelhub-top-products";
export const UNAVAILABLE_TEXT = "Top products are unavailable right now.";
export const EMPTY_TEXT = "No products to show.";

export interface WidgetView {
  showProducts(products: readonly WidgetProduct[]): void;
  showUnavailable(): void;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Created per call, not at load: nothing at module level may throw into the host page. */
function formatCount(value: number, compact: boolean): string {
  try {
    const style: Intl.NumberFormatOptions = compact ? { notation: "compact", maximumFractionDigits: 1 } : {};
    return new Intl.NumberFormat("en", style).format(value);
  } catch {
    return String(value);
  }
}

/** A stable avatar hue per owner (FNV-1a), so one owner's models share a colour across pages. */
function hueOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++)
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0) % 360;
}

export function createHost(): HTMLElement {
  return document.createElement(HOST_TAG);
}

export function createView(
  host: HTMLElement,
  options: WidgetOptions,
  hubUrl: string,
  log: WidgetLogger,
): WidgetView {
  const shadow = host.attachShadow({ mode: "open" });
  adoptStyles(shadow);
  const root = element("section", "mh");
  root.classList.toggle("vertical", options.direction === "vertical");
  root.classList.toggle("no-border", options.noBorder);
  root.classList.toggle("no-shadow", options.noShadow);
  root.classList.toggle("no-padding", options.noPadding);
  root.setAttribute("aria-label", options.title);
  root.style.setProperty("--cols", String(options.maxColumns));
  followTheme(root, options, log);

  if (!options.noTitle) root.append(element("h2", "title", options.title));
  const content = element("div", "content");
  content.setAttribute("aria-busy", "true");
  root.append(content);
  if (!options.noCredits) {
    const credits = element("footer", "credits");
    credits.append(link(hubUrl, "Powered by Modelhub", options));
    root.append(credits);
  }
  shadow.append(root);

  const skeletons = element("div", "grid");
  const count =
    options.permanent.length > 0
      ? Math.min(options.permanent.length, options.maxProducts)
      : options.maxProducts;
  for (let index = 0; index < count; index++) skeletons.append(element("div", "skeleton"));
  content.append(skeletons);

  const settle = (...children: Node[]) => {
    content.replaceChildren(...children);
    content.removeAttribute("aria-busy");
  };
  return {
    showProducts(products) {
      if (products.length === 0) {
        settle(element("p", "note", EMPTY_TEXT));
        return;
      }
      const list = element("ol", "grid");
      for (const product of products) {
        const item = element("li", "item");
        item.append(card(product, options));
        list.append(item);
      }
      settle(list);
    },
    showUnavailable() {
      settle(element("p", "note", UNAVAILABLE_TEXT));
    },
  };
}

/**
 * A constructed stylesheet is CSSOM, which a page's Content-Security-Policy (`style-src` without
 * 'unsafe-inline') does not block, unlike a <style> element; the element is the fallback for old browsers.
 */
function adoptStyles(shadow: ShadowRoot): void {
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(WIDGET_CSS);
    shadow.adoptedStyleSheets = [sheet];
  } catch {
    shadow.append(element("style", undefined, WIDGET_CSS));
  }
}

function link(href: string, text: string, options: WidgetOptions): HTMLAnchorElement {
  const anchor = element("a", undefined, text);
  anchor.href = href;
  if (!options.openSelf) {
    anchor.target = "_blank";
    anchor.rel = "noopener";
  }
  return anchor;
}

function card(product: WidgetProduct, options: WidgetOptions): HTMLAnchorElement {
  const anchor = link(product.url, "", options);
  anchor.className = "card";
  anchor.title = product.id;

  const avatar = element("span", "avatar", (product.owner || product.name).charAt(0));
  avatar.setAttribute("aria-hidden", "true");
  avatar.style.setProperty("--hue", String(hueOf(product.owner || product.name)));

  const body = element("span", "body");
  body.append(element("span", "name", product.name));
  if (product.owner) body.append(element("span", "owner", product.owner));
  const meta = element("span", "meta");
  if (product.pipeline_tag) meta.append(element("span", "task", product.pipeline_tag));
  if (product.downloads !== undefined) meta.append(count("↓", product.downloads, "downloads"));
  if (product.likes !== undefined) meta.append(count("♥", product.likes, "likes"));
  if (meta.childNodes.length > 0) body.append(meta);

  anchor.append(avatar, body);
  return anchor;
}

function count(symbol: string, value: number, noun: string): HTMLSpanElement {
  const node = element("span", noun, `${symbol} ${formatCount(value, true)}`);
  node.title = `${formatCount(value, false)} ${noun}`;
  return node;
}

/** light/dark as given; auto tracks prefers-color-scheme, including changes while the page is open. */
function followTheme(root: HTMLElement, options: WidgetOptions, log: WidgetLogger): void {
  if (options.theme !== "auto") {
    root.dataset.scheme = options.theme;
    return;
  }
  const query = window.matchMedia?.("(prefers-color-scheme: dark)");
  const apply = () => {
    root.dataset.scheme = query?.matches ? "dark" : "light";
    log.info(`theme auto: using ${root.dataset.scheme}`);
  };
  apply();
  query?.addEventListener?.("change", apply);
}
