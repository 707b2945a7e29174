/**
 * The Content-Security-Policy of the web app's pages. Scripts, styles, fonts, workers and API calls come from
 * the hub itself (API calls also from loopback hubs, for the widget builder's development mode): no inline script, no eval (WebAssembly compilation only: hash-wasm hashes uploads), so an
 * injected `<script>` or event handler does nothing. Images come from the hub, `data:`/`blob:` URLs the app
 * makes, and the operator's allow-list (CARD_IMAGE_ORIGINS): a model card's image elsewhere is not loaded, so
 * a card cannot track who reads it. Inline style attributes stay allowed (React's `style` props; they cannot
 * run code). Nothing may frame a page, change its base URL or post its forms elsewhere. Pages may frame the hub
 * and `frameOrigins`: the spaces origin (SPACES_URL), where static spaces' sites run in a sandbox.
 */
export function webPagePolicy(
  cardImageOrigins: readonly string[] = [],
  frameOrigins: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...cardImageOrigins].join(" "),
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    // The widget builder's development mode previews the widget against a hub running on the developer's own
    // machine (packages/widget, `devMode&hub=`): loopback origins only, any port.
    "connect-src 'self' http://localhost:* http://127.0.0.1:*",
    "worker-src 'self' blob:",
    ["frame-src 'self'", ...frameOrigins].join(" "),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * CARD_IMAGE_ORIGINS: a comma- or space-separated list of origins (`https://images.example.org`) card images
 * may load from besides the hub. An entry that is not an http(s) origin is added to `problems`, named.
 */
export function parseImageOrigins(text: string | undefined, problems: string[]): string[] {
  const origins: string[] = [];
  for (const entry of (text ?? "").split(/[\s,]+/).filter(Boolean)) {
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, "")) {
      problems.push(
        `CARD_IMAGE_ORIGINS: ${JSON.stringify(entry)} is not an origin; write scheme and host only, as https://images.example.org.`,
      );
    } else origins.push(url.origin);
  }
  return origins;
}
