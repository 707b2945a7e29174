import { createGrantSigner } from "../auth/signed-grants.js";

const SECRET_KEY = "space-app-secret";
/**
 * How long a static space's site link stays valid. Short, because it is the only thing the spaces origin
 * checks (it never sees the hub's session): a viewer who loses access keeps the site at most this long.
 * The hub page asks for a new link each time it shows the app.
 */
export const SPACE_LINK_TTL_MS = 30 * 60 * 1000;

/** What a link lets its holder read: the files of one space at one commit, until `expires`. */
export interface SpaceAppGrant {
  repo: number;
  commit: string;
  expires: number;
}

export interface SpaceAppLinksDeps {
  /** The hub's settings table: the signing key lives there, so every replica accepts every link. */
  meta: { getOrCreate(key: string, value: string): Promise<string> };
}

/**
 * Signed links to a static space's site on the spaces origin (SPACES_URL). The hub mints one for a caller
 * who may read the space's files (the route checks that); the spaces origin serves the files the link
 * names and nothing else. The link is a path prefix, `/{payload}.{signature}/`, so the site's relative URLs
 * (`style.css`, `js/app.js`) stay inside it.
 */
export function createSpaceAppLinks(deps: SpaceAppLinksDeps) {
  const signer = createGrantSigner<SpaceAppGrant>(deps.meta, SECRET_KEY, {
    invalid: "Invalid space link: open the space's App tab on the hub for a new one.",
    expired: "This space link has expired: reload the space's App tab on the hub.",
  });
  return {
    /** The path segment naming `grant` (payload and signature). */
    sign: (grant: SpaceAppGrant): Promise<string> => signer.sign(grant),
    /** The grant a link carries; 401 when forged, malformed or expired. */
    open: (token: string, now: number): Promise<SpaceAppGrant> => signer.open(token, now),
  };
}

export type SpaceAppLinks = ReturnType<typeof createSpaceAppLinks>;
