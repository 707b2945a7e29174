/**
 * A provider's redirect, as far as the router lets it reach the caller. A client follows a redirect with the
 * caller's hub token and the call's body (openai's client does for 307/308): a `Location` that is relative (the
 * hub's, to the client) or names the hub would send them into the hub wherever a compromised or misconfigured
 * provider chose. Only the passthrough (`/router/{provider}`) passes one on, and only one that stays on the
 * provider's own base URL, moved onto the router's path for it.
 */

/** A redirect the caller's client could follow: a 3xx, but 304 (Not Modified, which goes nowhere). */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

/**
 * The passthrough's `Location` for a provider's redirect: what follows the provider's base URL, after
 * `routerBase` (`{publicUrl}/router/{provider}`); undefined when it leads anywhere else. The `Location` is
 * resolved as the client would resolve it on the provider (against `requestUrl`, its dot segments removed)
 * before it is compared, so that `{base}/../x` or a relative `/x` outside the base path is not taken for the
 * base's.
 */
export function passthroughLocation(
  location: string | string[] | undefined,
  requestUrl: string,
  baseUrl: string,
  routerBase: string,
): string | undefined {
  // None, or several (which one a client follows is its own choice): nothing to move onto the router.
  if (typeof location !== "string") return undefined;
  let target: URL;
  try {
    target = new URL(location, requestUrl);
  } catch {
    return undefined;
  }
  const base = new URL(baseUrl);
  if (target.origin !== base.origin || target.username !== "" || target.password !== "") return undefined;
  const basePath = base.pathname.replace(/\/+$/, "");
  const rest = target.pathname.slice(basePath.length);
  if (!target.pathname.startsWith(basePath) || (rest !== "" && !rest.startsWith("/"))) return undefined;
  return `${routerBase}${rest}${target.search}${target.hash}`;
}
