import { type Query, QueryClient } from "@tanstack/react-query";
import { HubApiError } from "./api/hub-fetch.js";

/** Whether a failure is the hub's own answer (not found, not allowed, invalid): asking again changes nothing. */
function isFinalAnswer(error: unknown): boolean {
  return error instanceof HubApiError && error.status < 500;
}

/**
 * Whether a failed read is worth one more try: a network failure or a server error may pass, while the hub's
 * 4xx answers are final. Retrying those made a private or missing repository's page say "Loading…" for a
 * second longer before it said "not found".
 */
export function retryOnce(failures: number, error: unknown): boolean {
  return failures < 1 && !isFinalAnswer(error);
}

/**
 * Whether a page mounting over a failed query asks again. A route's loader starts the query before the page's
 * code has loaded; when the hub's 404 comes first, asking again on mount sent a second look-up and showed
 * "Loading…" once more. A network or server failure is still asked again.
 */
export function retryOnMount(query: Query): boolean {
  return !isFinalAnswer(query.state.error);
}

/** One cache for the app; route loaders warm it while a page's code is still downloading. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: retryOnce, retryOnMount, refetchOnWindowFocus: false } },
});
