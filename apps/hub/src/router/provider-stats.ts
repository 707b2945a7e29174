/**
 * How fast each provider has answered this hub lately, from the router's own calls: moving averages of the
 * time until its response headers (what `:fastest` orders by), per provider and per provider and model, and
 * of its output throughput per provider and model (what `/v1/models` reports). Kept in memory: a replica
 * learns from its own traffic within a few calls, and a stale figure only changes an order or a report,
 * never an answer.
 */
export function createProviderStats(weight = 0.2) {
  const headersMs = new Map<string, number>();
  const throughput = new Map<string, number>();
  const average = (map: Map<string, number>, key: string, value: number) => {
    const previous = map.get(key);
    map.set(key, previous === undefined ? value : previous + weight * (value - previous));
  };
  return {
    /** A call's headers came `ms` after it left (model: the hub model called, when known). */
    record(provider: string, ms: number, model?: string): void {
      average(headersMs, provider, ms);
      if (model !== undefined) average(headersMs, `${provider}\0${model}`, ms);
    },
    /** A whole answer of `tokens` output tokens took `ms` from the call to its end. */
    recordThroughput(provider: string, model: string, tokens: number, ms: number): void {
      if (tokens > 0 && ms > 0) average(throughput, `${provider}\0${model}`, (tokens * 1000) / ms);
    },
    /** Average ms until headers (of the provider, or of its calls for one model); undefined when unmeasured. */
    headersMs(provider: string, model?: string): number | undefined {
      return headersMs.get(model === undefined ? provider : `${provider}\0${model}`);
    },
    /** Average output tokens per second for the model at the provider; undefined when unmeasured. */
    throughput(provider: string, model: string): number | undefined {
      return throughput.get(`${provider}\0${model}`);
    },
  };
}

export type ProviderStats = ReturnType<typeof createProviderStats>;
