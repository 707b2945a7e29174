/**
 * Stop sequences over text decoded so far: where the first one starts, and how much of the end to hold back
 * from a stream because it may be the start of one (OpenAI's `stop`: the answer ends before it, without it).
 */
export function createStopScan(stops: readonly string[]) {
  const nonEmpty = stops.filter((stop) => stop.length > 0);
  const longest = Math.max(0, ...nonEmpty.map((stop) => stop.length));
  return {
    /** Where the first stop sequence begins in `text` (looking from `from` on), or -1. */
    find(text: string, from: number): number {
      let first = -1;
      const start = Math.max(0, from - longest + 1);
      for (const stop of nonEmpty) {
        const at = text.indexOf(stop, start);
        if (at >= 0 && (first < 0 || at < first)) first = at;
      }
      return first;
    },
    /** How many characters at the end of `text` begin a stop sequence (to be held back until decided). */
    heldBack(text: string): number {
      for (let length = Math.min(longest - 1, text.length); length > 0; length--) {
        const tail = text.slice(text.length - length);
        if (nonEmpty.some((stop) => stop.startsWith(tail))) return length;
      }
      return 0;
    },
  };
}
