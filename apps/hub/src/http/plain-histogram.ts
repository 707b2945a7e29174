import type { Registry } from "prom-client";

/** One label value's observations: per bucket (not cumulative, the last past every bound: +Inf), sum, count. */
interface Series {
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * A histogram with one label, kept as plain numbers and written out at each scrape in prom-client's format
 * (the registry formats these values like its own metrics'). prom-client's `Histogram.observe` hashes the
 * label set on every observation, a labelled child's too: for the router's call latency that was ~0.6% of
 * the hub's CPU per call at zero latency (bench:router profile 2026-11-30). A series appears from its first
 * observation on, as with prom-client.
 */
export function createPlainHistogram(
  registry: Registry,
  options: { name: string; help: string; labelName: string; buckets: readonly number[] },
) {
  const { name, help, labelName, buckets } = options;
  const series = new Map<string, Series>();
  registry.registerMetric({
    name,
    help,
    type: "histogram",
    aggregator: "sum",
    get: async () => ({
      name,
      help,
      type: "histogram",
      aggregator: "sum",
      values: [...series].flatMap(([label, one]) => {
        let cumulative = 0;
        const bucketValues = one.buckets.map((observed, index) => {
          cumulative += observed;
          return {
            labels: { le: index < buckets.length ? buckets[index]! : "+Inf", [labelName]: label },
            value: cumulative,
            metricName: `${name}_bucket`,
          };
        });
        return [
          ...bucketValues,
          { labels: { [labelName]: label }, value: one.sum, metricName: `${name}_sum` },
          { labels: { [labelName]: label }, value: one.count, metricName: `${name}_count` },
        ];
      }),
    }),
    reset: () => series.clear(),
  } as unknown as Parameters<Registry["registerMetric"]>[0]);

  return {
    /** One observation under a label value (a Map lookup by the value: no label set hashed). */
    observe(label: string, value: number): void {
      let one = series.get(label);
      if (!one) {
        one = { buckets: new Array(buckets.length + 1).fill(0), sum: 0, count: 0 };
        series.set(label, one);
      }
      let bucket = 0;
      while (bucket < buckets.length && value > buckets[bucket]!) bucket++;
      one.buckets[bucket]!++;
      one.sum += value;
      one.count++;
    },
  };
}
