import type { Registry } from "prom-client";

/** One route pattern's requests, added up in plain numbers until the next scrape reads them. */
interface RouteSeries {
  method: string;
  route: string;
  /** Requests per status answered. */
  statuses: Map<number, number>;
  /** Observations per bucket (not cumulative), the last one past every bound (+Inf). */
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * The request counter and latency histogram of every answer (`hub_http_requests_total`,
 * `hub_http_request_duration_seconds`), kept as plain numbers per route pattern and written out at each
 * scrape. prom-client's own Counter and Histogram validate and hash the label set on every update: on
 * `HEAD /resolve` that was about 5 % of the hub's CPU per request (bench/results/2026-11-29-api-profile.md).
 * The exposition is prom-client's (the registry formats these values like its own metrics').
 */
export function createRequestMetrics(registry: Registry, buckets: readonly number[]) {
  /** Series by method and route pattern, e.g. `HEAD /:namespace/:name/resolve/:revision/:path{.+}`. */
  const series = new Map<string, RouteSeries>();
  const seriesOf = (method: string, route: string): RouteSeries => {
    const key = `${method} ${route}`;
    let found = series.get(key);
    if (!found) {
      found = {
        method,
        route,
        statuses: new Map(),
        buckets: new Array(buckets.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      series.set(key, found);
    }
    return found;
  };

  registry.registerMetric({
    name: "hub_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    type: "counter",
    aggregator: "sum",
    get: async () => ({
      name: "hub_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status.",
      type: "counter",
      aggregator: "sum",
      values: [...series.values()].flatMap(({ method, route, statuses }) =>
        [...statuses].map(([status, value]) => ({
          labels: { method, route, status: String(status) },
          value,
        })),
      ),
    }),
    reset: () => series.clear(),
  } as unknown as Parameters<Registry["registerMetric"]>[0]);

  const durationName = "hub_http_request_duration_seconds";
  const durationHelp = "Time until the answer's headers, by method and route pattern.";
  registry.registerMetric({
    name: durationName,
    help: durationHelp,
    type: "histogram",
    aggregator: "sum",
    get: async () => ({
      name: durationName,
      help: durationHelp,
      type: "histogram",
      aggregator: "sum",
      values: [...series.values()].flatMap(({ method, route, buckets: counts, sum, count }) => {
        let cumulative = 0;
        const bucketValues = counts.map((observed, index) => {
          cumulative += observed;
          return {
            labels: { le: index < buckets.length ? buckets[index]! : "+Inf", method, route },
            value: cumulative,
            metricName: `${durationName}_bucket`,
          };
        });
        return [
          ...bucketValues,
          { labels: { method, route }, value: sum, metricName: `${durationName}_sum` },
          { labels: { method, route }, value: count, metricName: `${durationName}_count` },
        ];
      }),
    }),
    reset: () => series.clear(),
  } as unknown as Parameters<Registry["registerMetric"]>[0]);

  return {
    /** One answered request: its method, route pattern, status and seconds until its headers. */
    observe(method: string, route: string, status: number, seconds: number) {
      const one = seriesOf(method, route);
      one.statuses.set(status, (one.statuses.get(status) ?? 0) + 1);
      let bucket = 0;
      while (bucket < buckets.length && seconds > buckets[bucket]!) bucket++;
      one.buckets[bucket]!++;
      one.sum += seconds;
      one.count++;
    },
  };
}
