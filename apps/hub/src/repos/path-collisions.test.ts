import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../errors.js";
import { assertNoPathTwins } from "./path-collisions.js";

const put = (...paths: string[]) => paths.map((path) => ({ kind: "put", path }));
/** The error for a commit writing `written` whose new tree is `tree` (the written paths included). */
function refusal(tree: string[], written: string[]): string | undefined {
  try {
    assertNoPathTwins([...tree, ...written], put(...written));
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return (error as Error).message;
  }
}

describe("assertNoPathTwins", () => {
  it("refuses a written file or folder that folds to another entry, at any depth", () => {
    expect(refusal(["models/a/weights.bin"], ["Models/b.txt"])).toMatch(/"models" and "Models"/);
    expect(refusal(["models/a/weights.bin"], ["models/A/x"])).toMatch(/"models\/a" and "models\/A"/);
    expect(refusal(["x/Stra\u00dfe/1"], ["x/STRASSE/2"])).toMatch(/differ only by case/);
    expect(refusal(["caf\u00e9/1"], ["cafe\u0301/2"])).toMatch(/Unicode normalization/);
    expect(refusal(["a\u200cb.txt"], ["ab.txt"])).toBeDefined();
    expect(refusal([], ["README.md", "readme.md"])).toMatch(/README\.md/);
  });

  it("accepts distinct names, the same path written again, and leaves old twins it does not touch alone", () => {
    expect(refusal(["data/a.txt", "data/b.txt"], ["data/c.txt", "data/a.txt"])).toBeUndefined();
    expect(refusal(["caf\u00e9/1"], ["cafe/2", "caf\u00e8/3"])).toBeUndefined();
    // Twins from before the rule do not block an unrelated commit.
    expect(refusal(["old/X.txt", "old/x.txt"], ["new/y.txt"])).toBeUndefined();
    // Deletions write nothing.
    expect(() =>
      assertNoPathTwins(["A.txt", "a.txt"], [{ kind: "deleteFile", path: "a.txt" }]),
    ).not.toThrow();
  });
});
