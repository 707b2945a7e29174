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
 * parser cannot take (thousands of nested emphasis marks overflow its stack), or that nests elements deeper
 * than MAX_CARD_NESTING, comes back as plain text.
 * Pure and slow on big input: the page runs it in a worker (card-worker.ts).
 */
export function cardToTree(source: string): CardTree {
  const cut = source.length > MAX_CARD_CHARACTERS;
  const text = cutLongTables(cut ? source.slice(0, MAX_CARD_CHARACTERS) : source);
  const asPlainText = (): CardTree => ({ tree: { type: "root", children: [] }, cut, plainText: text });
  let tree: Root;
  try {
    tree = processor.runSync(processor.parse(text)) as Root;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return asPlainText();
  }
  // Whether the parser's stack overflows depends on how warm its code is; the depth limit decides the same
  // way every time (and bounds the depth of React's recursive render).
  return nestsDeeperThan(tree, MAX_CARD_NESTING) ? asPlainText() : { tree, cut };
}

/**
 * Elements nested deeper than this in a card show it as plain text: far above real cards (under ~20) and the
 * hostile e2e card's 300-deep quote, far below the 2,500 levels 5,000 emphasis marks make.
 */
export const MAX_CARD_NESTING = 1000;

/** Whether any node of `root` is more than `limit` levels down (iterative: the tree may be deep). */
function nestsDeeperThan(root: Root, limit: number): boolean {
  const pending: [node: { children?: unknown[] }, depth: number][] = [[root, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (depth > limit) return true;
    for (const child of node.children ?? []) pending.push([child as { children?: unknown[] }, depth + 1]);
  }
  return false;
}
