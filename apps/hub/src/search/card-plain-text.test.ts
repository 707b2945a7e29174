import { describe, expect, it } from "vitest";
import { markdownPlainText, plainTextAround } from "./card-plain-text.js";

describe("a card's plain text", () => {
  it("reads as the rendered card: no heading marks, emphasis, link targets, fences or raw HTML", () => {
    const card = [
      "# yolos-tiny",
      "",
      "A **tiny** model by *hustvl*, see [the paper](https://arxiv.org/abs/1) and `pip install`.",
      "",
      "![a diagram](fig.png) <div align=center>centered</div>",
      "",
      "| size | speed |",
      "|---|---|",
      "| 6M | fast |",
      "",
      "```python",
      "model = load()",
      "```",
    ].join("\n");
    expect(markdownPlainText(card)).toBe(
      "yolos-tiny A tiny model by hustvl, see the paper and pip install. a diagram centered size speed 6M fast model = load()",
    );
  });

  it("parses only the stretch around the first term, cut at blank lines", () => {
    const filler = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} about **nothing**.`).join("\n\n");
    const card = `${filler}\n\nThe **satellite** imagery part.\n\n${filler}`;
    const text = plainTextAround(card, ["satellite"]);
    expect(text).toContain("The satellite imagery part.");
    expect(text).not.toContain("**");
    expect(text.length).toBeLessThan(2500);
    expect(plainTextAround("# Only\n\nan opening", ["absent"])).toBe("Only an opening");
  });
});
