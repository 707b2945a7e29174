import { InvalidInputError } from "../errors.js";

const UNITS: Record<string, number> = { "": 1, K: 1e3, M: 1e6, B: 1e9, T: 1e12 };

function parseCount(text: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)([KMBT]?)$/i.exec(text.trim());
  if (!match) throw invalid(raw);
  return Math.round(Number(match[1]) * UNITS[match[2]!.toUpperCase()]!);
}

const invalid = (raw: string) =>
  new InvalidInputError(
    `Invalid num_parameters ${JSON.stringify(raw.slice(0, 60))}: use "min:6B", "max:128B" or "min:6B,max:128B" (units K, M, B, T).`,
  );

/** The public hub's parameter-count range, `min:6B,max:128B` (either bound may be left out). */
export function parseNumParameters(raw: string): { min?: number; max?: number } {
  const range: { min?: number; max?: number } = {};
  for (const part of raw.split(",")) {
    const [bound, value, extra] = part.split(":");
    if ((bound !== "min" && bound !== "max") || value === undefined || extra !== undefined)
      throw invalid(raw);
    if (range[bound] !== undefined) throw invalid(raw);
    range[bound] = parseCount(value, raw);
  }
  return range;
}
