import { LimitExceededError } from "../errors.js";

/** The bounds every render runs under (TemplateOptions.limits). */
export interface Limits {
  /** Maximum characters of output (also caps any single string or list a template builds). */
  maxOutputLength: number;
  /** Maximum loop iterations in one render, over all loops. */
  maxLoopIterations: number;
  /** Maximum nesting of macro calls and recursive loops. */
  maxRecursionDepth: number;
  /**
   * Total work of one render: every call (macro, filter, method, function), loop iteration and write
   * counts one step, and filters and methods count one more per 16 items/characters of their input.
   */
  maxSteps: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxOutputLength: 10_000_000,
  maxLoopIterations: 1_000_000,
  maxRecursionDepth: 200,
  // Keeps the most expensive render under ~1 s here (exponential macro fan-out stops after 0.15-0.4 s on
  // a shared core); every corpus template renders each golden conversation in under 2,000 steps.
  maxSteps: 2_000_000,
};

/** Widest padding a template may ask for (format widths, center/ljust/zfill, indent, tojson indent). */
export const MAX_PADDING = 100_000;

export function checkPadding(width: number): void {
  if (width > MAX_PADDING) {
    throw new LimitExceededError(`padding width ${width} exceeds the limit of ${MAX_PADDING}`);
  }
}
