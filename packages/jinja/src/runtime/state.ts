import { LimitExceededError } from "../errors.js";
import type { Limits } from "../sandbox.js";

/** Mutable state of one render: the output buffer, counters for the limits, and the clock. */
export class RenderState {
  out = "";
  iterations = 0;
  depth = 0;
  /** Line of the statement being executed, for runtime error locations. */
  line = 0;

  constructor(
    readonly limits: Limits,
    readonly now: () => Date,
  ) {}

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
