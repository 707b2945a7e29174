import { describe, expect, it } from "vitest";
import { topLevelKeys } from "./top-level-keys.js";

describe("topLevelKeys", () => {
  it("lists the top level's keys in order, repeats included, escapes decoded", () => {
    expect(topLevelKeys('{"a":1,"b":{"a":2,"c":[{"d":3}]},"a":"x"}')).toEqual(["a", "b", "a"]);
    expect(topLevelKeys(' { "mod\\u0065l" : "m", "s": "\\"model\\": 1 }", "t" :[] } ')).toEqual([
      "model",
      "s",
      "t",
    ]);
    expect(topLevelKeys("{}")).toEqual([]);
  });
});
