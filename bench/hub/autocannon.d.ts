// The part of autocannon's API this benchmark uses (the package ships no types).
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      duration?: number;
    }
    interface Histogram {
      average: number;
      p50: number;
      p99: number;
      total: number;
    }
    interface Result {
      latency: Histogram;
      requests: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
