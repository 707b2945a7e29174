import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { UnauthorizedError } from "../errors.js";

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
  let secret: Promise<Buffer> | undefined;
  const key = () =>
    (secret ??= deps.meta.getOrCreate(SECRET_KEY, randomBytes(32).toString("hex")).then((hex) => {
      return Buffer.from(hex, "hex");
    }));
  // Made (or read) now rather than on the first link: a read must not be what writes the key.
  key().catch(() => {
    secret = undefined;
  });
  const hmac = async (payload: string) =>
    createHmac("sha256", await key())
      .update(payload)
      .digest("base64url");

  return {
    /** The path segment naming `grant` (payload and signature). */
    async sign(grant: SpaceAppGrant): Promise<string> {
      const payload = Buffer.from(JSON.stringify(grant)).toString("base64url");
      return `${payload}.${await hmac(payload)}`;
    },

    /** The grant a link carries; 401 when forged, malformed or expired. */
    async open(token: string, now: number): Promise<SpaceAppGrant> {
      const [payload = "", signature = "", extra] = token.split(".");
      const expected = Buffer.from(await hmac(payload));
      const given = Buffer.from(signature);
      if (
        !payload ||
        extra !== undefined ||
        expected.length !== given.length ||
        !timingSafeEqual(expected, given)
      ) {
        throw new UnauthorizedError("Invalid space link: open the space's App tab on the hub for a new one.");
      }
      const grant = JSON.parse(Buffer.from(payload, "base64url").toString()) as SpaceAppGrant;
      if (grant.expires < now) {
        throw new UnauthorizedError("This space link has expired: reload the space's App tab on the hub.");
      }
      return grant;
    },
  };
}

export type SpaceAppLinks = ReturnType<typeof createSpaceAppLinks>;
