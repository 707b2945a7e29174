import { describe, expect, it } from "vitest";
import { escapeHtml, plainTextToHtml } from "./plain-text-html.js";

describe("plain text as HTML", () => {
  it("escapes every character HTML gives a meaning to", () => {
    expect(escapeHtml(`<img src=x onerror="alert('1')">&`)).toBe(
      "&#60;img src=x onerror=&#34;alert(&#39;1&#39;)&#34;&#62;&#38;",
    );
  });

  it("makes paragraphs of blocks and keeps single line breaks", () => {
    expect(plainTextToHtml("Fix the tokenizer\n\nIt dropped <eos>.\nSee #12.\n\n\n")).toBe(
      "<p>Fix the tokenizer</p>\n<p>It dropped &#60;eos&#62;.<br>\nSee #12.</p>",
    );
    expect(plainTextToHtml("")).toBe("");
  });
});
