import type { RepoRecord } from "../repos/repo-records.js";
import type { SpaceAppMinter } from "../repos/space-app-port.js";
import { SPACE_LINK_TTL_MS, type SpaceAppLinks } from "./space-app-links.js";

/**
 * Static spaces' site links: `{SPACES_URL}/{link}/{app_file}`, for the hub's `app-url` route, which has
 * checked that the caller may read the space's files.
 */
export function createSpaceApps(deps: {
  links: Pick<SpaceAppLinks, "sign">;
  /** SPACES_URL: where browsers reach the spaces origin (no trailing slash). */
  spacesUrl: string;
  now?: () => number;
}): SpaceAppMinter {
  return {
    async mint(repo: RepoRecord, commit: string, entry: string) {
      const expires = (deps.now ?? Date.now)() + SPACE_LINK_TTL_MS;
      const token = await deps.links.sign({ repo: repo.key, commit, expires });
      const path = entry.split("/").map(encodeURIComponent).join("/");
      return { url: `${deps.spacesUrl}/${token}/${path}`, expiresAt: new Date(expires).toISOString() };
    },
  };
}
