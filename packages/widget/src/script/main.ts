/**
 * Entry of the embeddable script (bundled into one IIFE). Reads its options from its own URL, renders in
 * a shadow root where its tag stands, then fills in the hub's products. Nothing here may throw into the
 * host page: every failure ends in a quiet note (and a debug log when asked for).
 */
import { parseWidgetOptions, type WidgetOptions } from "../options.js";
import { loadProducts, productsRequestUrl } from "./load-products.js";
import { claimOwnScript, placeHost, resolveHubUrl } from "./locate.js";
import { createLogger, type WidgetLogger } from "./logger.js";
import { createHost, createView } from "./render.js";

declare const __WIDGET_VERSION__: string;

async function render(
  script: HTMLScriptElement,
  options: WidgetOptions,
  warnings: string[],
  log: WidgetLogger,
): Promise<void> {
  log.info(`script version ${__WIDGET_VERSION__}, options`, options);
  for (const warning of warnings) log.warn(warning);

  const hubUrl = resolveHubUrl(script.src, options, log);
  const host = createHost();
  const view = createView(host, options, hubUrl, log);
  await placeHost(host, script, options, log);

  const url = productsRequestUrl(hubUrl, options);
  log.info(`loading products from ${url}`);
  try {
    const products = (await loadProducts(url)).slice(0, options.maxProducts);
    view.showProducts(products);
    log.info(
      `showing ${products.length} products`,
      products.map((product) => product.id),
    );
  } catch (error) {
    view.showUnavailable();
    log.warn("products unavailable; showing the fallback note", error);
  }
}

function boot(): void {
  const script = claimOwnScript();
  if (!script) return;
  const { options, warnings } = parseWidgetOptions(new URL(script.src).searchParams);
  const log = createLogger(options.debug);
  if (!script.isConnected) {
    // Removed before it ran (a framework unmounting, React StrictMode's double effects): render nothing.
    log.info("script tag was removed before it ran; not rendering");
    return;
  }
  render(script, options, warnings, log).catch((error: unknown) => log.warn("widget failed", error));
}

try {
  boot();
} catch {
  // The host page must never see an error from the widget.
}
