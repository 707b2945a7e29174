/** Timing helpers: interleaved rounds so machine noise hits every client alike. */
import { PerformanceObserver } from "node:perf_hooks";

export const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Per call: wall-clock ms, and this process's CPU ms (user + system). The server runs in another
 * process, so CPU time is the client's own cost, and it stays meaningful when other work on a shared
 * machine stretches the wall clock.
 */
export interface Sample {
  wallMs: number;
  cpuMs: number;
  /**
   * Garbage collection pauses that started during the sample, ms per call. A young-generation collection
   * here takes ~5-10 ms (undici keeps every response reachable from a FinalizationRegistry, so ~25 KB per
   * request survives it) and comes every ~130 chats: it lands in about one round in three, in whichever
   * client's round fills the young generation, while every client's garbage is in it.
   */
  gcMs: number;
  /** Wall clock per call without those pauses. */
  wallWithoutGcMs: number;
}

interface Window {
  start: number;
  end: number;
  count: number;
}

/** GC pauses (start, duration) observed since the first window was opened; node reports them after the fact. */
const gcPauses: Array<{ start: number; duration: number }> = [];
let gcObserver: PerformanceObserver | undefined;

function observeGc(): void {
  if (gcObserver) return;
  gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      gcPauses.push({ start: entry.startTime, duration: entry.duration });
  });
  gcObserver.observe({ entryTypes: ["gc"] });
}

function gcMsIn(window: Window): number {
  let total = 0;
  for (const pause of gcPauses)
    if (pause.start >= window.start && pause.start < window.end) total += pause.duration;
  return total;
}

/** A sample's GC figures are filled in by `interleaved` once node has reported the pauses. */
type TimedSample = Omit<Sample, "gcMs" | "wallWithoutGcMs"> & { window: Window };

async function timed(count: number, body: () => Promise<void>): Promise<TimedSample> {
  observeGc();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await body();
  const used = process.cpuUsage(cpu);
  const end = performance.now();
  return {
    wallMs: (end - start) / count,
    cpuMs: (used.user + used.system) / 1000 / count,
    window: { start, end, count },
  };
}

/** Runs `fn` `count` times one after another. */
export function sequential(fn: () => Promise<unknown>, count: number): Promise<TimedSample> {
  return timed(count, async () => {
    for (let i = 0; i < count; i++) await fn();
  });
}

/** Runs `count` calls with `inFlight` of them running at any time. */
export function concurrent(
  fn: () => Promise<unknown>,
  count: number,
  inFlight: number,
): Promise<TimedSample> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await fn();
    }
  };
  return timed(count, async () => {
    await Promise.all(Array.from({ length: inFlight }, worker));
  });
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32): the same orders in every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * Measures every client `rounds` times, interleaved (every client once per round, in a shuffled order): a
 * background burst on the shared machine then spoils one round of everyone, not one client.
 */
export async function interleaved<C extends { name: string }>(
  clients: C[],
  rounds: number,
  run: (client: C) => Promise<TimedSample>,
): Promise<Map<string, Sample>> {
  const samples = new Map<string, TimedSample[]>(clients.map((c) => [c.name, []]));
  const random = seededRandom(clients.length * 7919 + rounds);
  for (let round = 0; round < rounds; round++) {
    // A fresh shuffled order each round. A rotation (a b c d, b c d a, ...) keeps every client right after
    // the same neighbour, and the neighbour matters: the client after the one allocating most (openai)
    // inherits its nearly full young generation and pays the collection (raw fetch against an identical
    // raw fetch placed after openai measured 1.11x client CPU in one run).
    const order = shuffled(clients, random);
    for (const client of order) samples.get(client.name)!.push(await run(client));
  }
  // Wall clock: the median, as a burst of other work on a shared machine stretches single rounds. Client
  // CPU: the mean, as garbage collection pauses (several ms each) land in whichever round is running when
  // the young generation fills: a median then jumps between rounds with and without a pause, while the
  // mean charges each client for its own allocation.
  // GC pauses are reported asynchronously: give node a moment to deliver the last ones.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return new Map(
    [...samples].map(([name, values]) => {
      const gcMs = values.map((v) => gcMsIn(v.window) / v.window.count);
      return [
        name,
        {
          wallMs: median(values.map((v) => v.wallMs)),
          cpuMs: mean(values.map((v) => v.cpuMs)),
          gcMs: mean(gcMs),
          wallWithoutGcMs: median(values.map((v, i) => v.wallMs - gcMs[i]!)),
        },
      ];
    }),
  );
}

export function table(title: string, results: Map<string, Sample>, baseline = "raw fetch"): void {
  const base = results.get(baseline)!;
  console.log(`\n${title}`);
  console.log(
    `  ${"".padEnd(24)} ${"wall ms".padStart(9)} ${"ratio".padStart(7)}   ${"client CPU ms".padStart(13)} ${"ratio".padStart(7)}   ${"GC ms".padStart(6)}   ${"wall w/o GC".padStart(11)} ${"ratio".padStart(7)}`,
  );
  const ratio = (value: number, of: number) => `${(value / of).toFixed(3).padStart(6)}x`;
  for (const [name, { wallMs, cpuMs, gcMs, wallWithoutGcMs }] of results) {
    const wall = `${wallMs.toFixed(3).padStart(9)} ${ratio(wallMs, base.wallMs)}`;
    const cpu = `${cpuMs.toFixed(3).padStart(13)} ${ratio(cpuMs, base.cpuMs)}`;
    const gc = `${gcMs.toFixed(3).padStart(6)}`;
    const noGc = `${wallWithoutGcMs.toFixed(3).padStart(11)} ${ratio(wallWithoutGcMs, base.wallWithoutGcMs)}`;
    console.log(`  ${name.padEnd(24)} ${wall}   ${cpu}   ${gc}   ${noGc}`);
  }
}
