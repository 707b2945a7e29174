/**
 * Whether a model card's image may be loaded: only from the page's own origin (the hub) or an origin the
 * operator allowed (CARD_IMAGE_ORIGINS, from `GET /api/site`). The pages' Content-Security-Policy blocks any
 * other anyway; deciding here too shows such an image as a link (no broken image, no policy violation),
 * and keeps a card from learning who reads it through an image on a server of its author's.
 */
export function cardImageAllowed(
  src: string,
  pageUrl: string,
  allowedOrigins: readonly string[] = [],
): boolean {
  let url: URL;
  try {
    url = new URL(src, pageUrl);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  return url.origin === new URL(pageUrl).origin || allowedOrigins.includes(url.origin);
}
