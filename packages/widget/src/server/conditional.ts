/** HTTP conditional requests (RFC 9110 §13): If-None-Match first, If-Modified-Since only without it. */

/** Does an If-None-Match header match `etag`? Weak comparison: W/"x" matches "x". */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = bare(etag);
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || bare(tag) === wanted);
}

export function isNotModified(headers: Headers, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = headers.get("if-none-match");
  if (ifNoneMatch !== null) return etagMatches(ifNoneMatch, etag);
  const ifModifiedSince = headers.get("if-modified-since");
  if (ifModifiedSince === null) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && lastModified.getTime() <= since;
}
