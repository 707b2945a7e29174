/**
 * A hosted model's pace, for benchmarks: each request draws its time to the first token and its tokens per
 * second from the given ranges (uniformly), so that concurrent calls spread out like real ones instead of
 * finishing in lockstep. A chat that sends a numeric `seed` (OpenAI's field for reproducible sampling) draws
 * from that seed: the same calls get the same pace on every path, so two paths compare call for call.
 */
export interface SimPace {
  /** Milliseconds before the reply starts (the model's time to first token): [min, max]. */
  firstTokenMs: readonly [number, number];
  /** Tokens per second once it has started: [min, max]. */
  tokensPerSecond: readonly [number, number];
}

/** One request's draw. */
export interface PaceDraw {
  firstTokenMs: number;
  /** Milliseconds per token: between two stream events, and per token of a non-streamed answer. */
  tokenIntervalMs: number;
}

export class InvalidPaceError extends Error {
  override name = "InvalidPaceError";
}

const between = ([min, max]: readonly [number, number], random: () => number) => min + (max - min) * random();

export function drawPace(pace: SimPace, random: () => number = Math.random): PaceDraw {
  return {
    firstTokenMs: between(pace.firstTokenMs, random),
    tokenIntervalMs: 1000 / between(pace.tokensPerSecond, random),
  };
}

/** A small deterministic generator in [0, 1) (mulberry32), for draws from a request's `seed`. */
export function seededRandom(seed: number): () => number {
  let state = Math.trunc(seed) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Checks a pace given as an option: non-negative ranges with min <= max, and tokens per second above 0. */
export function checkPace(pace: SimPace): SimPace {
  const valid = ([min, max]: readonly [number, number]) =>
    Number.isFinite(min) && Number.isFinite(max) && min >= 0 && min <= max;
  if (!valid(pace.firstTokenMs)) {
    throw new InvalidPaceError(
      `firstTokenMs must be [min, max] with 0 <= min <= max, got ${pace.firstTokenMs}.`,
    );
  }
  if (!valid(pace.tokensPerSecond) || pace.tokensPerSecond[0] <= 0) {
    throw new InvalidPaceError(
      `tokensPerSecond must be [min, max] with 0 < min <= max, got ${pace.tokensPerSecond}.`,
    );
  }
  return pace;
}

/**
 * The CLI's `--pace FIRST_TOKEN_MS:TOKENS_PER_SECOND`, each a number or a range `min-max`:
 * `150-400:30-80` is a first token after 150 to 400 ms, then 30 to 80 tokens per second.
 */
export function parsePace(text: string): SimPace {
  const range = (part: string | undefined, what: string): [number, number] => {
    const match = /^(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?$/.exec(part?.trim() ?? "");
    if (!match) {
      throw new InvalidPaceError(
        `--pace wants FIRST_TOKEN_MS:TOKENS_PER_SECOND, each a number or min-max (e.g. 150-400:30-80); the ${what} part "${part ?? ""}" is not.`,
      );
    }
    return [Number(match[1]), Number(match[2] ?? match[1])];
  };
  const [first, rate, extra] = text.split(":");
  if (extra !== undefined)
    throw new InvalidPaceError(`--pace has one ":" (e.g. 150-400:30-80), got "${text}".`);
  return checkPace({
    firstTokenMs: range(first, "first-token"),
    tokensPerSecond: range(rate, "tokens-per-second"),
  });
}
