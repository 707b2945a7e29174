/** HTTP conditional requests (RFC 9110 §13): If-None-Match first, If-Modified-Since only without it. */

/** Does an If-None-Match header match `etag`? Weak comparison: W/"x" matches "x". */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = bare(etag);
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === wanted);
}

/** `etags`: the validators of every representation (encoding) of the current content. */
export function isNotModified(headers: Headers, etags: readonly string[], lastModified: Date): boolean {
  const ifNoneMatch = headers.get("if-none-match");
  if (ifNoneMatch !== null) return etags.some((etag) => etagMatches(ifNoneMatch, etag));
  const ifModifiedSince = headers.get("if-modified-since");
  if (ifModifiedSince === null) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && lastModified.getTime() <= since;
}

/** Does an Accept-Encoding header allow gzip (named or `*`, with a non-zero q)? */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(",").some((part) => {
    const [coding = "", ...params] = part.split(";").map((piece) => piece.trim().toLowerCase());
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.find((param) => param.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
