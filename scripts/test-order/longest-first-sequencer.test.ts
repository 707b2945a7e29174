import { describe, expect, it } from "vitest";
import { longestFirst, readDurations } from "./longest-first-sequencer.js";

describe("longestFirst", () => {
  const durations = new Map([
    ["a.test.ts", 10],
    ["b.test.ts", 200],
    ["c.test.ts", 3],
  ]);

  it("starts the longest files first, whatever their project", () => {
    expect(longestFirst(["c.test.ts", "a.test.ts", "b.test.ts"], (f) => f, durations)).toEqual([
      "b.test.ts",
      "a.test.ts",
      "c.test.ts",
    ]);
  });

  it("counts a file the table does not know as the median, and breaks ties by path", () => {
    expect(longestFirst(["new.test.ts", "c.test.ts", "b.test.ts", "a.test.ts"], (f) => f, durations)).toEqual(
      ["b.test.ts", "a.test.ts", "new.test.ts", "c.test.ts"],
    );
  });

  it("keeps every file it was given", () => {
    expect(longestFirst([], (f: string) => f, new Map())).toEqual([]);
    expect(longestFirst(["x", "y"], (f) => f, new Map())).toEqual(["x", "y"]);
  });
});

describe("the committed table", () => {
  it("holds seconds by repository path, the browser journeys among the longest", () => {
    const durations = readDurations();
    expect(durations.size).toBeGreaterThan(100);
    for (const [path, seconds] of durations) {
      expect(path).toMatch(/^(apps|packages|scripts)\/.+\.test\.ts$/);
      expect(seconds).toBeGreaterThan(0);
    }
    expect(durations.get("apps/web/e2e/every-page.test.ts")).toBeGreaterThan(60);
  });
});
