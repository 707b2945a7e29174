/** Runs `fn` repeatedly for about `ms` after a quarter of that as warm-up; returns operations per second. */
export function opsPerSecond(fn: () => number, ms: number): number {
  const warmUntil = performance.now() + ms / 4;
  while (performance.now() < warmUntil) fn();
  let ops = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    ops += fn();
    elapsed = performance.now() - start;
  }
  return (ops / elapsed) * 1000;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
