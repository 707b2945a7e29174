import { LimitExceededError } from "../errors.js";
import type { Limits } from "./limits.js";

/**
 * The render running now. Rendering is synchronous, so conversions deep in the value model (repr, str,
 * tojson) read its size cap and charge its step budget from here instead of taking it as an argument
 * through every filter; a nested render (a host function rendering another template) saves and restores it.
 */
let active: RenderState | null = null;

/** The render running now, or null outside one (conversions are then unbounded). */
export function activeRender(): RenderState | null {
  return active;
}

/** Makes `st` the active render for the duration of `body`. */
export function withActiveRender<T>(st: RenderState, body: () => T): T {
  const previous = active;
  active = st;
  try {
    return body();
  } finally {
    active = previous;
  }
}

/** The size cap of the active render (Infinity outside one). */
export function sizeCap(): number {
  return active === null ? Number.POSITIVE_INFINITY : active.limits.maxOutputLength;
}

/** Throws the limit error unless `length` characters or items fit under the active render's size cap. */
export function checkSizeCap(length: number): void {
  if (active !== null && length > active.limits.maxOutputLength) active.checkSize(length);
}

/**
 * Charges the active render for a conversion (repr, str, tojson) that produced `length` characters: one
 * step per 4 (measured: a step of a macro call costs about what converting 4 characters of a list does).
 */
export function chargeConversion(length: number): void {
  if (active !== null) active.step(length >>> 2);
}

/** Charges the active render `steps` steps of work done inside a builtin (sorting, copying lists). */
export function chargeWork(steps: number): void {
  if (active !== null) active.step(Math.ceil(steps));
}

/** Cached in RenderState.outer for a name neither the context nor the globals have. */
export const NOT_FOUND: unique symbol = Symbol("not found");

/** Mutable state of one render: the output buffer, counters for the limits, and the clock. */
export class RenderState {
  out = "";
  iterations = 0;
  depth = 0;
  /** Work done so far (limits.maxSteps). */
  steps = 0;
  /** Line of the statement being executed, for runtime error locations. */
  line = 0;

  /** Input of the filter chain being applied to a captured block (filter blocks, `set x | f`). */
  filterInput: unknown = undefined;

  constructor(
    readonly limits: Limits,
    readonly now: () => Date,
    /** The render context (user variables) and the template globals, searched after all frames. */
    private readonly context: Record<string, unknown>,
    private readonly globals: Record<string, unknown>,
    outerNames: number,
  ) {
    this.outer = new Array(outerNames).fill(undefined);
  }

  /** Names read from the context or the globals, by the template's index (undefined until first read). */
  readonly outer: unknown[];

  /**
   * Looks `name` up in the context, then the globals (NOT_FOUND if in neither), and caches the result at
   * `index` for the rest of the render: Jinja2 too resolves a function's free names once, on entry.
   */
  resolveOuter(index: number, name: string): unknown {
    const ctx = this.context;
    let v = Object.hasOwn(ctx, name) ? ctx[name] : undefined;
    if (v === undefined) v = this.globals[name];
    if (v === undefined) v = NOT_FOUND;
    this.outer[index] = v;
    return v;
  }

  write(text: string): void {
    if (++this.steps > this.limits.maxSteps) this.tooMuchWork();
    this.out += text;
    if (this.out.length > this.limits.maxOutputLength) {
      throw new LimitExceededError(`output exceeds the limit of ${this.limits.maxOutputLength} characters`);
    }
  }

  tick(): void {
    if (++this.steps > this.limits.maxSteps) this.tooMuchWork();
    if (++this.iterations > this.limits.maxLoopIterations) {
      throw new LimitExceededError(`more than ${this.limits.maxLoopIterations} loop iterations`);
    }
  }

  enter(): void {
    if (++this.steps > this.limits.maxSteps) this.tooMuchWork();
    if (++this.depth > this.limits.maxRecursionDepth) {
      throw new LimitExceededError(`recursion deeper than ${this.limits.maxRecursionDepth} levels`);
    }
  }

  /** Counts `n` steps of work (one call, or the size of what a builder is about to produce). */
  step(n = 1): void {
    this.steps += n;
    if (this.steps > this.limits.maxSteps) this.tooMuchWork();
  }

  /** One call of a filter or method on `input`: a step, plus one per 4 items or 16 characters of it. */
  stepOver(input: unknown): void {
    let n = 1;
    if (typeof input === "string") n += input.length >>> 4;
    else if (Array.isArray(input)) n += input.length >>> 2;
    this.steps += n;
    if (this.steps > this.limits.maxSteps) this.tooMuchWork();
  }

  /** Throws unless `length` characters or items fit under the size cap; call before allocating them. */
  checkSize(length: number): void {
    if (length > this.limits.maxOutputLength) {
      throw new LimitExceededError(
        `value of ${length} characters/items exceeds the output limit of ${this.limits.maxOutputLength}`,
      );
    }
  }

  private tooMuchWork(): never {
    throw new LimitExceededError(
      `more than ${this.limits.maxSteps} steps of work (calls, loop iterations, output) in one render`,
    );
  }

  /** Runs `body` with a fresh output buffer and returns what it wrote. */
  capture(body: () => unknown): string {
    const saved = this.out;
    this.out = "";
    try {
      body();
      return this.out;
    } finally {
      this.out = saved;
    }
  }
}
