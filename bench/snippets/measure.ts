/** CPU time of this process so far, in ms (user + system). */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export interface Rate {
  /** Operations per second of this process's CPU time (user + system). */
  perCpuSecond: number;
  /** Operations per second of wall time over the same interval. */
  perWallSecond: number;
}

/**
 * Runs `fn` (which reports how many operations it did) for about `ms` of this process's CPU time after a
 * quarter of that as warm-up. CPU time decides: on the shared machine a process waiting for a core would
 * otherwise look slow; wall time over the same interval is reported beside it.
 */
export function measureRate(fn: () => number, ms: number): Rate {
  const warmUntil = cpuMs() + ms / 4;
  while (cpuMs() < warmUntil) fn();
  let ops = 0;
  const cpuStart = cpuMs();
  const wallStart = performance.now();
  let cpu = 0;
  while (cpu < ms) {
    ops += fn();
    cpu = cpuMs() - cpuStart;
  }
  const wall = performance.now() - wallStart;
  return { perCpuSecond: (ops / cpu) * 1000, perWallSecond: (ops / wall) * 1000 };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
