import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MAX_CARD_CHARACTERS, Markdown } from "./markdown.js";

const render = (source: string) => renderToStaticMarkup(createElement(Markdown, { source }));

describe("the model card's Markdown", () => {
  it("renders CommonMark and GFM: headings one level below the page's, lists, tables, code, strikethrough", () => {
    const html = render(
      "# Title\n\nSome *em* and **strong** and ~~gone~~.\n\n- a\n- [x] done\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n```python\nprint(1)\n```\n\nhttps://example.com",
    );
    expect(html).toContain("<h2");
    expect(html).toContain("<em>em</em>");
    expect(html).toContain("<strong>strong</strong>");
    expect(html).toContain("<del>gone</del>");
    expect(html).toMatch(/<input[^>]*type="checkbox"[^>]*checked/);
    expect(html).toMatch(/<table[\s\S]*<td[^>]*>1<\/td>/);
    expect(html).toContain("print(1)");
    expect(html).toContain('href="https://example.com"');
  });

  it("lets nothing of a hostile card run: script, event handlers, javascript: and data: links, raw HTML", () => {
    const html = render(
      [
        "<script>alert(1)</script>",
        '<img src="x" onerror="alert(2)">',
        '<a href="javascript:alert(3)">raw link</a>',
        "[click](javascript:alert(4)) [jump](JaVaScRiPt:alert(5)) [data](data:text/html;base64,PHNjcmlwdD4=)",
        '![pic](javascript:alert(6)) <iframe src="https://evil.example"></iframe>',
        '<div style="position:fixed;inset:0">cover</div>',
        "[entity](&#106;avascript:alert(7))",
      ].join("\n\n"),
    );
    expect(html).not.toMatch(/<script|<iframe|<div style|onerror|javascript:|data:text/i);
    expect(html).not.toMatch(/\son\w+=/i);
    expect(html).toContain("click");
  });

  it("puts a huge table in its own scrolling box", () => {
    const columns = 40;
    const header = `|${Array.from({ length: columns }, (_, i) => ` c${i} `).join("|")}|`;
    const rule = `|${"---|".repeat(columns)}`;
    const rows = Array.from(
      { length: 100 },
      (_, r) => `|${Array.from({ length: columns }, () => ` ${r} `).join("|")}|`,
    );
    const html = render([header, rule, ...rows].join("\n"));
    expect(html).toMatch(/^<div[^>]*><div class="[^"]*overflow-x-auto[^"]*"[^>]*><table/);
    expect(html.match(/<tr>/g)?.length).toBe(101);
  });

  it("shows a card up to MAX_CARD_CHARACTERS and says the rest is cut", () => {
    const html = render(`${"word ".repeat(MAX_CARD_CHARACTERS / 5)}TAIL-AFTER-THE-CUT`);
    expect(html).not.toContain("TAIL-AFTER-THE-CUT");
    expect(html).toContain("the rest is not shown");
  });
});
