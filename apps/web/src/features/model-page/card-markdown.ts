import type { Root } from "hast";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { type CardTree, MAX_CARD_CHARACTERS } from "./card-protocol.js";
import { cutLongTables, rehypeLimitTableRows } from "./limit-table-rows.js";

export { type CardTree, MAX_CARD_CHARACTERS } from "./card-protocol.js";

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  // Raw HTML is dropped (no `allowDangerousHtml`): a card's HTML never reaches the page, not even as text.
  .use(remarkRehype)
  .use(rehypeSanitize)
  .use(rehypeLimitTableRows)
  .freeze();

/**
 * A card's Markdown (CommonMark + GitHub's tables, task lists, strikethrough, autolinks) as a sanitized HTML
 * tree: GitHub's schema (no script, no event handler, no `javascript:` or `data:` URL), tables cut to
 * MAX_TABLE_ROWS rows (before parsing too: a table row costs the parser about a millisecond). Markdown the
 * parser cannot take (thousands of nested emphasis marks overflow its stack) comes back as plain text.
 * Pure and slow on big input: the page runs it in a worker (card-worker.ts).
 */
export function cardToTree(source: string): CardTree {
  const cut = source.length > MAX_CARD_CHARACTERS;
  const text = cutLongTables(cut ? source.slice(0, MAX_CARD_CHARACTERS) : source);
  try {
    return { tree: processor.runSync(processor.parse(text)) as Root, cut };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { tree: { type: "root", children: [] }, cut, plainText: text };
  }
}
