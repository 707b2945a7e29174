/** Timing helpers: interleaved rounds so machine noise hits every client alike. */

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
}

async function timed(count: number, body: () => Promise<void>): Promise<Sample> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await body();
  const used = process.cpuUsage(cpu);
  return { wallMs: (performance.now() - start) / count, cpuMs: (used.user + used.system) / 1000 / count };
}

/** Runs `fn` `count` times one after another. */
export function sequential(fn: () => Promise<unknown>, count: number): Promise<Sample> {
  return timed(count, async () => {
    for (let i = 0; i < count; i++) await fn();
  });
}

/** Runs `count` calls with `inFlight` of them running at any time. */
export function concurrent(fn: () => Promise<unknown>, count: number, inFlight: number): Promise<Sample> {
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

/**
 * Measures every client `rounds` times, interleaved (a, b, c, d, then b, c, d, a, ...): a background burst on
 * the shared machine then spoils one round of everyone, not one client.
 */
export async function interleaved<C extends { name: string }>(
  clients: C[],
  rounds: number,
  run: (client: C) => Promise<Sample>,
): Promise<Map<string, Sample>> {
  const samples = new Map<string, Sample[]>(clients.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    // Rotate the order each round so no client always runs right after the same neighbour.
    const order = clients.map((_, i) => clients[(i + round) % clients.length]!);
    for (const client of order) samples.get(client.name)!.push(await run(client));
  }
  // Wall clock: the median, as a burst of other work on a shared machine stretches single rounds. Client
  // CPU: the mean, as garbage collection pauses (several ms each) land in whichever round is running when
  // the young generation fills: a median then jumps between rounds with and without a pause, while the
  // mean charges each client for its own allocation.
  return new Map(
    [...samples].map(([name, values]) => [
      name,
      { wallMs: median(values.map((v) => v.wallMs)), cpuMs: mean(values.map((v) => v.cpuMs)) },
    ]),
  );
}

export function table(title: string, results: Map<string, Sample>, baseline = "raw fetch"): void {
  const base = results.get(baseline)!;
  console.log(`\n${title}`);
  console.log(
    `  ${"".padEnd(24)} ${"wall ms".padStart(9)} ${"ratio".padStart(7)}   ${"client CPU ms".padStart(13)} ${"ratio".padStart(7)}`,
  );
  for (const [name, { wallMs, cpuMs }] of results) {
    const wall = `${wallMs.toFixed(3).padStart(9)} ${(wallMs / base.wallMs).toFixed(3).padStart(6)}x`;
    const cpu = `${cpuMs.toFixed(3).padStart(13)} ${(cpuMs / base.cpuMs).toFixed(3).padStart(6)}x`;
    console.log(`  ${name.padEnd(24)} ${wall}   ${cpu}`);
  }
}
