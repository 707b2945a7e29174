import { describe, expect, it } from "vitest";
import { asSlashComments, highlightShell, restoreHashComments } from "./highlight-shell.js";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

describe("highlightShell", () => {
  it("keeps the text exactly and colours comments, strings, options, variables", () => {
    const code = `# call it\ncurl -X POST "https://x/y" \\\n  -H 'Authorization: Bearer $HF_TOKEN' --data "{\\"a\\": 1}" # tail`;
    const html = highlightShell(code);
    expect(text(html)).toBe(code);
    expect(html).toContain('<span style="color:var(--sh-comment)"># call it</span>');
    expect(html).toContain('<span style="color:var(--sh-property)">-X</span>');
    expect(html).toContain('<span style="color:var(--sh-string)">&quot;https://x/y&quot;</span>');
  });
  it("never lets markup through", () => {
    const html = highlightShell(`echo "<img src=x onerror=alert(1)>" <b>`);
    expect(html).not.toMatch(/<img|<b>/);
  });
});

describe("python comment round trip", () => {
  it("turns line comments into slash comments and back", () => {
    expect(asSlashComments("x = 1\n    # note\n")).toBe("x = 1\n    // note\n");
    expect(restoreHashComments('<span class="sh__token--comment" style="c">// note</span>')).toBe(
      '<span class="sh__token--comment" style="c"># note</span>',
    );
  });
});
