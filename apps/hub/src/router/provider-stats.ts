/**
 * How fast each provider has answered this hub lately: a moving average of the time until its response
 * headers, from the router's own calls (what `:fastest` orders by). Kept in memory: a replica learns from its
 * own traffic within a few calls, and a stale figure only changes an order, never an answer.
 */
export function createProviderStats(weight = 0.2) {
  const headersMs = new Map<string, number>();
  return {
    record(provider: string, ms: number): void {
      const previous = headersMs.get(provider);
      headersMs.set(provider, previous === undefined ? ms : previous + weight * (ms - previous));
    },
    /** Average ms until headers, or undefined when the provider has not answered yet. */
    headersMs(provider: string): number | undefined {
      return headersMs.get(provider);
    },
  };
}

export type ProviderStats = ReturnType<typeof createProviderStats>;
