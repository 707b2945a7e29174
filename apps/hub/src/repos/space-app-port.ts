import type { RepoRecord } from "./repo-records.js";

/**
 * Mints a static space's site link on the spaces origin (spaces/space-apps.ts); wired by app.ts, used by
 * space-app-routes.ts. Its own module so that read-routes.ts (RepoReadDeps) and the route share it.
 */
export interface SpaceAppMinter {
  mint(repo: RepoRecord, commit: string, entry: string): Promise<{ url: string; expiresAt: string }>;
}
