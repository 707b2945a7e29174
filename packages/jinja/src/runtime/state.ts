import { LimitExceededError } from "../errors.js";
import type { Limits } from "../sandbox.js";

/** Mutable state of one render: the output buffer, counters for the limits, and the clock. */
export class RenderState {
  out = "";
  iterations = 0;
  depth = 0;
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
  ) {}

  lookupGlobal(name: string): unknown {
    const ctx = this.context;
    if (Object.hasOwn(ctx, name)) {
      const v = ctx[name];
      if (v !== undefined) return v;
    }
    return this.globals[name];
  }

  write(text: string): void {
    this.out += text;
    if (this.out.length > this.limits.maxOutputLength) {
      throw new LimitExceededError(`output exceeds the limit of ${this.limits.maxOutputLength} characters`);
    }
  }

  tick(): void {
    if (++this.iterations > this.limits.maxLoopIterations) {
      throw new LimitExceededError(`more than ${this.limits.maxLoopIterations} loop iterations`);
    }
  }

  enter(): void {
    if (++this.depth > this.limits.maxRecursionDepth) {
      throw new LimitExceededError(`recursion deeper than ${this.limits.maxRecursionDepth} levels`);
    }
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
