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
  /**
   * The bench server's CPU per call, when the run measured it: at 32 in flight on 2 cores the client and
   * the server together saturate the machine, so the wall clock follows both processes' CPU.
   */
  serverCpuMs?: number;
  /** Wall clock per call of each round, in round order (round i of every client ran in the same cycle). */
  roundWallMs: number[];
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
type TimedSample = Omit<Sample, "gcMs" | "wallWithoutGcMs" | "roundWallMs"> & { window: Window };

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
export function seededRandom(seed: number): () => number {
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
          roundWallMs: values.map((v) => v.wallMs),
          ...(values[0]?.serverCpuMs === undefined
            ? {}
            : { serverCpuMs: mean(values.map((v) => v.serverCpuMs!)) }),
        },
      ];
    }),
  );
}

/**
 * Each client's wall clock over the baseline's, round by round: the median of the ratios of the rounds
 * that ran in the same cycle. Load on a shared machine drifts over seconds, and a cycle (every client
 * once) is shorter than that, so pairing each round with the baseline's of the same cycle takes the
 * drift out where a ratio of the two medians keeps it.
 */
export function pairedWallRatios(results: Map<string, Sample>, baseline = "raw fetch"): Map<string, number> {
  const base = results.get(baseline)!.roundWallMs;
  return new Map(
    [...results].map(([name, { roundWallMs }]) => [
      name,
      median(roundWallMs.map((wall, round) => wall / base[round]!)),
    ]),
  );
}

/** One client's sequential calls, measured one by one. */
export interface PerCallSample {
  /** Wall clock of each call, ms. */
  wallMs: Float64Array;
  /** GC pauses that started during this client's calls, ms per call. */
  gcMs: number;
}

/**
 * Sequential calls, every call timed on its own. The clients take turns, in a fresh seeded shuffled order
 * each cycle, each turn `run` calls in a row (a run of 1 interleaves single calls). Drift on a shared
 * machine then reaches every client alike, and quantiles over thousands of single calls are stable to a
 * fraction of a percent where a round's mean moves by several percent with one GC pause or one burst of
 * foreign work. Runs longer than one call keep each client's own code warm between its calls, as in an
 * application calling chat after chat; with runs of one, the other clients' code (openai's most) evicts
 * it between calls, which costs a client with code of its own ~2 % more than raw fetch, whose code (undici)
 * every client shares. GC pauses are charged to the call they interrupt: over many calls that is in
 * proportion to what each client allocates.
 */
export async function perCallInterleaved<C extends { name: string }>(
  clients: C[],
  calls: number,
  run: number,
  call: (client: C) => Promise<unknown>,
): Promise<Map<string, PerCallSample>> {
  observeGc();
  const turns = Math.ceil(calls / run);
  const perClient = turns * run;
  const wall = clients.map(() => new Float64Array(perClient));
  // Every call's window in time order, to charge GC pauses to the call they started in.
  const starts = new Float64Array(perClient * clients.length);
  const ends = new Float64Array(perClient * clients.length);
  const owners = new Uint16Array(perClient * clients.length);
  const random = seededRandom(clients.length * 104_729 + calls);
  const indexes = clients.map((_, i) => i);
  const firstPause = gcPauses.length;
  let slot = 0;
  for (let turn = 0; turn < turns; turn++) {
    for (const i of shuffled(indexes, random)) {
      for (let k = 0; k < run; k++) {
        const start = performance.now();
        await call(clients[i]!);
        const end = performance.now();
        wall[i]![turn * run + k] = end - start;
        starts[slot] = start;
        ends[slot] = end;
        owners[slot++] = i;
      }
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  const gcTotal = clients.map(() => 0);
  for (const pause of gcPauses.slice(firstPause)) {
    // The last window starting at or before the pause; it owns the pause if the pause began inside it.
    let lo = 0;
    let hi = slot - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pause.start) lo = mid;
      else hi = mid - 1;
    }
    if (starts[lo]! <= pause.start && pause.start < ends[lo]!) gcTotal[owners[lo]!]! += pause.duration;
  }
  return new Map(clients.map((c, i) => [c.name, { wallMs: wall[i]!, gcMs: gcTotal[i]! / perClient }]));
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.round(q * (sorted.length - 1))]!;
}

export function perCallTable(
  title: string,
  results: Map<string, PerCallSample>,
  baseline = "raw fetch",
): void {
  const stats = new Map(
    [...results].map(([name, { wallMs, gcMs }]) => {
      const sorted = Float64Array.from(wallMs).sort();
      const values = [0.25, 0.5, 0.75].map((q) => quantile(sorted, q));
      values.push(mean(Array.from(wallMs)));
      return [name, { values, gcMs }];
    }),
  );
  const base = stats.get(baseline)!.values;
  console.log(`\n${title}`);
  const columns = ["p25", "median", "p75", "mean"].map((c) => `${c} ms`.padStart(10) + "ratio".padStart(8));
  console.log(`  ${"".padEnd(24)} ${columns.join("  ")}  ${"GC ms".padStart(6)}`);
  for (const [name, { values, gcMs }] of stats) {
    const cells = values.map(
      (v, i) => `${v.toFixed(3).padStart(10)}${`${(v / base[i]!).toFixed(3)}x`.padStart(8)}`,
    );
    console.log(`  ${name.padEnd(24)} ${cells.join("  ")}  ${gcMs.toFixed(3).padStart(6)}`);
  }
}

export function table(title: string, results: Map<string, Sample>, baseline = "raw fetch"): void {
  const base = results.get(baseline)!;
  const paired = pairedWallRatios(results, baseline);
  const withServer = base.serverCpuMs !== undefined;
  console.log(`\n${title}`);
  console.log(
    `  ${"".padEnd(24)} ${"wall ms".padStart(9)} ${"ratio".padStart(7)} ${"paired".padStart(7)}   ${"client CPU ms".padStart(13)} ${"ratio".padStart(7)}   ${withServer ? `${"server CPU ms".padStart(13)} ${"ratio".padStart(7)}   ` : ""}${"GC ms".padStart(6)}   ${"wall w/o GC".padStart(11)} ${"ratio".padStart(7)}`,
  );
  const ratio = (value: number, of: number) => `${(value / of).toFixed(3).padStart(6)}x`;
  for (const [name, { wallMs, cpuMs, gcMs, wallWithoutGcMs, serverCpuMs }] of results) {
    const wall = `${wallMs.toFixed(3).padStart(9)} ${ratio(wallMs, base.wallMs)} ${`${paired.get(name)!.toFixed(3)}x`.padStart(7)}`;
    const server =
      serverCpuMs === undefined
        ? ""
        : `${serverCpuMs.toFixed(3).padStart(13)} ${ratio(serverCpuMs, base.serverCpuMs!)}   `;
    const cpu = `${cpuMs.toFixed(3).padStart(13)} ${ratio(cpuMs, base.cpuMs)}   ${server}`.trimEnd();
    const gc = `${gcMs.toFixed(3).padStart(6)}`;
    const noGc = `${wallWithoutGcMs.toFixed(3).padStart(11)} ${ratio(wallWithoutGcMs, base.wallWithoutGcMs)}`;
    console.log(`  ${name.padEnd(24)} ${wall}   ${cpu}   ${gc}   ${noGc}`);
  }
}
