import type { Nodes } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

/**
 * The words a reader sees of a Markdown card, for search passages: `# Title **bold** [link](url)` reads
 * "Title bold link". Parsed (CommonMark and GitHub's extensions, as the card is rendered), never
 * pattern-stripped; raw HTML and link targets are left out, an image counts as its alt text.
 */
const parser = unified().use(remarkParse).use(remarkGfm);

/** Nodes inside a line of text: they end with no space of their own. */
const INLINE = new Set([
  "text",
  "emphasis",
  "strong",
  "delete",
  "link",
  "linkReference",
  "inlineCode",
  "image",
  "imageReference",
]);

/** Markdown around a passage parsed at most: a passage is a few hundred characters of one spot. */
const WINDOW_BEFORE = 300;
const WINDOW_AFTER = 500;

export function markdownPlainText(markdown: string): string {
  const parts: string[] = [];
  const visit = (node: Nodes) => {
    if (node.type === "html") return;
    if (node.type === "text" || node.type === "inlineCode" || node.type === "code") parts.push(node.value);
    else if (node.type === "image" || node.type === "imageReference") parts.push(node.alt ?? "");
    if ("children" in node) for (const child of node.children) visit(child);
    // Blocks and table cells end with a space, so words of two paragraphs never run together.
    if (!INLINE.has(node.type)) parts.push(" ");
  };
  visit(parser.parse(markdown));
  return parts.join("").replace(/\s+/g, " ").trim();
}

/**
 * The plain text of the card's stretch where `terms` first occur (or its opening): only that stretch is
 * parsed, cut at blank lines, so a passage from a 64 KiB card costs a kilobyte's parse.
 */
export function plainTextAround(markdown: string, terms: readonly string[]): string {
  const lower = markdown.toLowerCase();
  const positions = terms.map((term) => lower.indexOf(term)).filter((at) => at >= 0);
  const at = positions.length ? Math.min(...positions) : 0;
  const before = at - WINDOW_BEFORE > 0 ? markdown.lastIndexOf("\n\n", at - WINDOW_BEFORE) : -1;
  const after = markdown.indexOf("\n\n", at + WINDOW_AFTER);
  return markdownPlainText(markdown.slice(before < 0 ? 0 : before, after < 0 ? undefined : after));
}
