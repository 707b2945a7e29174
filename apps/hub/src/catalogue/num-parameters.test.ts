import { describe, expect, it } from "vitest";
import { parseNumParameters } from "./num-parameters.js";

describe("parseNumParameters", () => {
  it("reads the public hub's range syntax with K, M, B and T units", () => {
    expect(parseNumParameters("min:6B,max:128B")).toEqual({ min: 6e9, max: 128e9 });
    expect(parseNumParameters("min:1.5B")).toEqual({ min: 1.5e9 });
    expect(parseNumParameters("max:500m")).toEqual({ max: 5e8 });
    expect(parseNumParameters("max:2T,min:100")).toEqual({ min: 100, max: 2e12 });
  });

  it("refuses anything else with a message that shows the syntax", () => {
    for (const raw of ["6B", "min:", "min:6X", "low:6B", "min:1B,min:2B", "min:1:2", "min:-1B"]) {
      expect(() => parseNumParameters(raw), raw).toThrow(/min:6B,max:128B/);
    }
  });
});
