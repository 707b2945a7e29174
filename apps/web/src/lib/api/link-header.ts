/** Returns the URL of the `rel="next"` entry of an RFC 8288 Link header, if any. */
export function nextLinkFrom(linkHeader: string | null): string | undefined {
  if (!linkHeader) return undefined;
  for (const part of linkHeader.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel="?next"?/i.test(match[2] ?? "")) return match[1];
  }
  return undefined;
}

/** The `cursor` query parameter of a next-page URL (absolute or relative). */
export function cursorFrom(nextUrl: string | undefined): string | undefined {
  if (!nextUrl) return undefined;
  return new URL(nextUrl, "http://hub.invalid").searchParams.get("cursor") ?? undefined;
}
