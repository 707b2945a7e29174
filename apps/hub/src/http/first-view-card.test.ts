import { describe, expect, it } from "vitest";
import { cardFirstViewHtml, cardOpening } from "./first-view-card.js";

const ORIGIN = "http://hub.test";

describe("a card's first view", () => {
  it("renders the card's opening with the app's classes, headings one level down", () => {
    const html = cardFirstViewHtml(
      "# Title\n\nSome *text* and `code`.\n\n| a | b |\n|:-:|--|\n| 1 | 2 |",
      ORIGIN,
      [],
    );
    expect(html).toContain('<h2 class="mt-6 mb-2 font-semibold tracking-tight text-2xl">Title</h2>');
    expect(html).toContain('<p class="my-3 leading-relaxed">Some <em>text</em> and <code class="rounded');
    expect(html).toContain('<th style="text-align:center" class="border border-line bg-raised');
  });

  it("cuts a long card at a blank line, never inside a code block", () => {
    const paragraph = `${"word ".repeat(100)}\n\n`;
    const fence = `\`\`\`\n${"code line\n".repeat(20)}\n\n${"more code\n".repeat(20)}\`\`\`\n\n`;
    const card = paragraph.repeat(3) + fence + paragraph;
    const opening = cardOpening(card, paragraph.length * 3 + 300);
    expect(opening).toBe(paragraph.repeat(3).slice(0, -2));
    expect(cardOpening("short card", 4000)).toBe("short card");
  });

  it("shows images of the hub and of allowed origins, any other as a link", () => {
    const html = cardFirstViewHtml(
      "![a](/own.png) ![b](https://ok.example/b.png) ![c](https://other.example/c.png)",
      ORIGIN,
      ["https://ok.example"],
    );
    expect(html).toContain('<img src="/own.png" alt="a"');
    expect(html).toContain('<img src="https://ok.example/b.png" alt="b"');
    expect(html).toContain("c (image on other.example)</a>");
  });

  it("gives no first view of a card nested deeper than it renders, or of nothing", () => {
    expect(cardFirstViewHtml(`${"> ".repeat(100)}deep`, ORIGIN, [])).toBeUndefined();
    expect(cardFirstViewHtml("<div>only raw html</div>", ORIGIN, [])).toBeUndefined();
    expect(cardFirstViewHtml("  \n", ORIGIN, [])).toBeUndefined();
  });
});
