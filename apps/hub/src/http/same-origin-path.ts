/**
 * `raw` when it is a path of this site that every browser resolves on this origin, else `fallback`. Where a
 * page goes after something (signing in) comes from the request, so it is attacker-chosen: only an absolute
 * path of printable ASCII is kept, and never one a browser would read as another origin. Browsers drop tabs
 * and newlines from URLs (`/\t/evil` is `//evil`), read `\` as `/` (`/\evil`), and take `//host` as a
 * network path; a scheme (`https:`, `javascript:`) has no leading `/`. Clients percent-encode anything
 * else a real path holds, as links of the web app do.
 */
export function sameOriginPath(raw: string | undefined, fallback = "/"): string {
  if (raw === undefined || !/^\/[\x21-\x7e]*$/.test(raw)) return fallback;
  if (raw.includes("\\") || raw.startsWith("//")) return fallback;
  return raw;
}
