import { describe, expect, it } from "vitest";
import { parseBlocks, parseInline } from "./markdown-blocks.js";

describe("parseBlocks", () => {
  it("reads the structure of a typical model card", () => {
    const card = [
      "# Llama",
      "",
      '<p align="center"><img src="logo.png"></p>',
      "A **fast** model.",
      "continued line",
      "",
      "```python",
      "import torch",
      "```",
      "- one",
      "- two",
      "",
      "| a | b |",
      "|---|---|",
      "| 1 | 2 |",
      "> quoted",
      "---",
    ].join("\n");
    expect(parseBlocks(card)).toEqual([
      { kind: "heading", level: 1, text: "Llama" },
      { kind: "paragraph", text: "A **fast** model. continued line" },
      { kind: "code", language: "python", code: "import torch" },
      { kind: "list", ordered: false, items: ["one", "two"] },
      { kind: "table", header: ["a", "b"], rows: [["1", "2"]] },
      { kind: "quote", text: "quoted" },
      { kind: "rule" },
    ]);
  });
  it("survives an unclosed fence", () => {
    expect(parseBlocks("```\ncode")).toEqual([{ kind: "code", language: "", code: "code" }]);
  });
});

describe("parseInline", () => {
  it("reads code, emphasis and links", () => {
    expect(parseInline("Use `pip` with **care**, see [docs](https://x.org/d) or *this*.")).toEqual([
      { kind: "text", text: "Use " },
      { kind: "code", text: "pip" },
      { kind: "text", text: " with " },
      { kind: "strong", text: "care" },
      { kind: "text", text: ", see " },
      { kind: "link", text: "docs", href: "https://x.org/d" },
      { kind: "text", text: " or " },
      { kind: "em", text: "this" },
      { kind: "text", text: "." },
    ]);
  });
  it("never makes a link of a script URL", () => {
    expect(parseInline("[x](javascript:alert(1))")[0]).toEqual({ kind: "text", text: "x" });
  });
});
