import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { cardToTree, MAX_CARD_CHARACTERS, MAX_CARD_NESTING } from "./card-markdown.js";
import { cutLongTables, MAX_TABLE_ROWS } from "./limit-table-rows.js";
import { MarkdownTree } from "./markdown.js";

// The pipeline the card worker runs, rendered as the page renders its answer.
const render = (source: string, wholeUrl?: string) =>
  renderToStaticMarkup(
    createElement(MarkdownTree, { card: cardToTree(source), wholeUrl, progressive: false }),
  );

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

  it("renders a table's first MAX_TABLE_ROWS rows and says the rest is cut", () => {
    const rows = Array.from({ length: MAX_TABLE_ROWS + 500 }, (_, r) => `| ${r} | row ${r} |`);
    const html = render(["| n | text |", "|---|---|", ...rows, "", "after the table"].join("\n"));
    expect(html.match(/<tr>/g)?.length).toBe(MAX_TABLE_ROWS + 1);
    expect(html).toContain(`row ${MAX_TABLE_ROWS - 1}<`);
    expect(html).not.toContain(`row ${MAX_TABLE_ROWS}<`);
    expect(html).toContain(`Only the first ${MAX_TABLE_ROWS} rows of this table are shown.`);
    expect(html).toContain("after the table");
    expect(render("| a |\n|---|\n| 1 |")).not.toContain("rows of this table");
  });

  it("links to the whole file when a card is cut", () => {
    const html = render("word ".repeat(MAX_CARD_CHARACTERS / 4), "/a/b/resolve/main/README.md");
    expect(html).toContain(
      '<a href="/a/b/resolve/main/README.md" class="font-medium underline">Read the whole README.md</a>',
    );
  });

  it("cuts a long table in the source too, fenced code left whole", () => {
    const rows = (count: number) => Array.from({ length: count }, (_, r) => `| ${r} | x |`);
    const table = ["| n | x |", "|---|---|", ...rows(MAX_TABLE_ROWS + 100)];
    const fenced = ["```", "| a | b |", "|---|---|", ...rows(MAX_TABLE_ROWS + 100), "```"];
    const cut = cutLongTables([...table, "", "after", ...fenced].join("\n")).split("\n");
    expect(cut.slice(0, MAX_TABLE_ROWS + 3)).toEqual(table.slice(0, MAX_TABLE_ROWS + 3));
    expect(cut.slice(MAX_TABLE_ROWS + 3)).toEqual(["", "after", ...fenced]);
    expect(render(table.join("\n"))).toContain("Only the first 500 rows of this table are shown.");
  });

  it("shows Markdown nested past the parser's stack as plain text, escaped", () => {
    const source = `${"*".repeat(5000)}x${"*".repeat(5000)} <script>alert(1)</script>`;
    const html = render(source);
    expect(html).toContain("shown as plain text");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script");
  });

  it("shows a card nesting past MAX_CARD_NESTING as plain text, and one within it as Markdown", () => {
    const quoted = (levels: number) => `${"> ".repeat(levels)}deep <b>bold</b>`;
    expect(cardToTree(quoted(MAX_CARD_NESTING + 10)).plainText).toBe(quoted(MAX_CARD_NESTING + 10));
    const within = render(quoted(20));
    expect(within).not.toContain("shown as plain text");
    expect(within.match(/<blockquote[\s>]/g)).toHaveLength(20);
  });

  it("shows a card up to MAX_CARD_CHARACTERS and says the rest is cut", () => {
    const html = render(`${"word ".repeat(MAX_CARD_CHARACTERS / 5)}TAIL-AFTER-THE-CUT`);
    expect(html).not.toContain("TAIL-AFTER-THE-CUT");
    expect(html).toContain("the rest is not shown");
  });

  it("loads a card's images from the hub only; one from elsewhere is a link, not an image", () => {
    const html = render("![plot](/alice/demo/resolve/main/plot.png) ![pixel](https://tracker.example/p.gif)");
    expect(html).toContain('<img src="/alice/demo/resolve/main/plot.png" alt="plot"');
    expect(html).not.toContain('<img src="https://tracker.example');
    expect(html).toMatch(
      /<a href="https:\/\/tracker\.example\/p\.gif"[^>]*>pixel \(image on tracker\.example\)<\/a>/,
    );
  });
});
