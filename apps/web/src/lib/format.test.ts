import { describe, expect, it } from "vitest";
import { formatCount } from "./format.js";

const intlCompact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

describe("formatCount", () => {
  it("writes what Intl's compact notation writes, at every unit's edges", () => {
    const values = [0, 1, 7, 12.34, 0.05, 999, 999.94, 999.95, 1000, 1049, 1050, 1150, 9999, 12_345, 99_949];
    values.push(99_950, 123_456, 999_949, 999_950, 1e6, 1_234_567, 6_800_000, 999_999_999, 1e9, 1.5e12);
    values.push(2e15, 9_999e12, 10_000e12, 1e18, -1, -1234, -999_950);
    for (let exponent = 0; exponent <= 15; exponent++) {
      for (const mantissa of [1, 1.049, 1.05, 1.15, 2.25, 4.95, 9.949, 9.95, 9.99, 9.9999]) {
        values.push(Math.round(mantissa * 10 ** exponent));
      }
    }
    // A fixed pseudo-random walk over ten orders of magnitude: the same values on every run.
    let seed = 38;
    for (let index = 0; index < 2000; index++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      values.push(Math.floor((seed / 2 ** 31) * 10 ** (index % 11)));
    }
    for (const value of values) expect(formatCount(value), String(value)).toBe(intlCompact.format(value));
  });

  it("reads a missing count as 0", () => {
    expect(formatCount(undefined)).toBe("0");
  });
});
