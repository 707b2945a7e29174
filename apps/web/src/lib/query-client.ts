import { QueryClient } from "@tanstack/react-query";
import { HubApiError } from "./api/hub-fetch.js";

/**
 * Whether a failed read is worth one more try: a network failure or a server error may pass, while the hub's
 * 4xx answers (not found, not allowed, invalid) are final. Retrying those made a private or missing
 * repository's page say "Loading…" for a second longer before it said "not found".
 */
export function retryOnce(failures: number, error: unknown): boolean {
  return failures < 1 && !(error instanceof HubApiError && error.status < 500);
}

/** One cache for the app; route loaders warm it while a page's code is still downloading. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: retryOnce, refetchOnWindowFocus: false } },
});
