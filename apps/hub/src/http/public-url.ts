import type { Context } from "hono";

/**
 * The hub's public URL: every URL the hub writes (generated snippets, widget data, `Link` headers) starts
 * with it. It is configured (PUBLIC_URL, default the listening address), never read from the request: a
 * `Host` header chosen by the caller must not decide where generated code sends a user's token.
 */

/** What createApp uses when no public URL is given (tests through `app.request()`). */
export const DEFAULT_PUBLIC_URL = "http://localhost";

export class PublicUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PublicUrlError";
  }
}

/** An absolute http(s) URL without credentials, query or fragment; returned without a trailing slash. */
export function normalizePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PublicUrlError(`PUBLIC_URL must be an absolute http(s) URL, got "${text.slice(0, 100)}".`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new PublicUrlError(`PUBLIC_URL must use http or https, got "${url.protocol}".`);
  if (url.username || url.password) throw new PublicUrlError("PUBLIC_URL must not contain credentials.");
  if (url.search || url.hash || text.includes("?") || text.includes("#"))
    throw new PublicUrlError("PUBLIC_URL must not contain a query or a fragment.");
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** The hub's public URL (no trailing slash); generated code points its clients here. */
export function publicUrl(c: Context): string {
  return (c.get("publicUrl") as string | undefined) ?? DEFAULT_PUBLIC_URL;
}

/** The public URL of this request's own path and query (e.g. the next page of a listing). */
export function publicUrlOfRequest(c: Context, searchParams?: URLSearchParams): URL {
  const requested = new URL(c.req.url);
  const url = new URL(`${publicUrl(c)}${requested.pathname}`);
  url.search = (searchParams ?? requested.searchParams).toString();
  return url;
}
