import { describe, expect, it } from "vitest";
import { textFileDiff } from "./text-diff.js";

describe("textFileDiff", () => {
  it("gives the hunks of a change with its counts, and nothing for the same text", () => {
    const before = "---\nlicense: mit\n---\n# Title\n";
    const after = "---\nlicense: apache-2.0\n---\n# Title\n";
    expect(textFileDiff("README.md", before, after)).toEqual({
      path: "README.md",
      status: "modified",
      lfs: false,
      binary: false,
      additions: 1,
      deletions: 1,
      patch: "@@ -1,4 +1,4 @@\n ---\n-license: mit\n+license: apache-2.0\n ---\n # Title",
    });
    expect(textFileDiff("README.md", before, before)).toBeUndefined();
  });
});
