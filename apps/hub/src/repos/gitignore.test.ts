import { describe, expect, it } from "vitest";
import { gitignoreMatcher } from "./gitignore.js";

describe("gitignoreMatcher (git's rules for a root .gitignore)", () => {
  it("ignores a folder's contents, a name at any depth, and takes negations back", () => {
    const ignored = gitignoreMatcher("nested/*\n*.log\n!keep.log\n# a comment\n/rooted.txt\nbuild/\n");
    expect(ignored("nested/file.bin")).toBe(true);
    expect(ignored("nested/deeper/file.bin")).toBe(true);
    expect(ignored("a/b/debug.log")).toBe(true);
    expect(ignored("keep.log")).toBe(false);
    expect(ignored("rooted.txt")).toBe(true);
    expect(ignored("sub/rooted.txt")).toBe(false);
    expect(ignored("x/build/out.bin")).toBe(true);
    expect(ignored("build.txt")).toBe(false);
    expect(ignored("README.md")).toBe(false);
  });

  it("ignores nothing for an empty file", () => {
    expect(gitignoreMatcher("")("anything.txt")).toBe(false);
  });
});
