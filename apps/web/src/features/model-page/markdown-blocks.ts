/**
 * A small Markdown reader for model cards: the block structure readers need (headings, paragraphs,
 * lists, code, quotes, tables, rules). It produces data, never HTML; the React side renders text
 * nodes only, so a card cannot inject markup.
 */
export type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "code"; language: string; code: string }
  | { kind: "list"; ordered: boolean; items: string[] }
  | { kind: "quote"; text: string }
  | { kind: "table"; header: string[]; rows: string[][] }
  | { kind: "rule" };

const FENCE = /^\s{0,3}(```+|~~~+)\s*([\w+-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const ORDERED = /^\s{0,3}\d+[.)]\s+(.*)$/;
const TABLE_DIVIDER = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());
}

/** Drops raw HTML tags (cards often wrap logos in <p align=center>); their text content stays. */
export function stripHtml(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, "").replace(/<\/?[a-zA-Z][^>]*>/g, "");
}

export function parseBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let index = 0;
  const isBlank = (line: string | undefined) => line === undefined || line.trim() === "";

  while (index < lines.length) {
    const line = lines[index] ?? "";
    if (isBlank(line)) {
      index++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] ?? "```";
      const code: string[] = [];
      index++;
      while (index < lines.length && !(lines[index] ?? "").trimStart().startsWith(marker)) {
        code.push(lines[index] ?? "");
        index++;
      }
      index++; // closing fence
      blocks.push({ kind: "code", language: fence[2] ?? "", code: code.join("\n") });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ kind: "heading", level: heading[1]?.length ?? 1, text: stripHtml(heading[2] ?? "") });
      index++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: "rule" });
      index++;
      continue;
    }
    if (line.includes("|") && TABLE_DIVIDER.test(lines[index + 1] ?? "")) {
      const header = splitRow(line);
      const rows: string[][] = [];
      index += 2;
      while (index < lines.length && (lines[index] ?? "").includes("|") && !isBlank(lines[index])) {
        rows.push(splitRow(lines[index] ?? ""));
        index++;
      }
      blocks.push({ kind: "table", header, rows });
      continue;
    }
    const listMatch = BULLET.exec(line) ?? ORDERED.exec(line);
    if (listMatch) {
      const ordered = !BULLET.test(line);
      const pattern = ordered ? ORDERED : BULLET;
      const items: string[] = [];
      while (index < lines.length) {
        const current = lines[index] ?? "";
        const item = pattern.exec(current);
        if (item) items.push(item[1] ?? "");
        else if (!isBlank(current) && /^\s{2,}\S/.test(current) && items.length > 0) {
          items[items.length - 1] += ` ${current.trim()}`;
        } else break;
        index++;
      }
      blocks.push({ kind: "list", ordered, items: items.map(stripHtml) });
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && /^\s{0,3}>/.test(lines[index] ?? "")) {
        quoted.push((lines[index] ?? "").replace(/^\s{0,3}>\s?/, ""));
        index++;
      }
      blocks.push({ kind: "quote", text: stripHtml(quoted.join(" ")) });
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length && !isBlank(lines[index])) {
      const current = lines[index] ?? "";
      if (paragraph.length > 0 && (FENCE.test(current) || HEADING.test(current) || BULLET.test(current)))
        break;
      paragraph.push(current.trim());
      index++;
    }
    const text = stripHtml(paragraph.join(" ")).trim();
    if (text) blocks.push({ kind: "paragraph", text });
  }
  return blocks;
}

export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "strong"; text: string }
  | { kind: "em"; text: string }
  | { kind: "link"; text: string; href: string };

const INLINE =
  /`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|!?\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|(?<![\w*])\*([^*\s][^*]*)\*|<(https?:\/\/[^>\s]+)>/g;

/** Only web links are followed; anything else (javascript:, data:) stays plain text. */
export function safeHref(href: string): string | undefined {
  return /^(https?:\/\/|\/|#)/i.test(href) ? href : undefined;
}

export function parseInline(text: string): Inline[] {
  const parts: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const start = match.index ?? 0;
    if (start > last) parts.push({ kind: "text", text: text.slice(last, start) });
    const [whole, code, strong, strongUnderscore, linkText, href, em, autolink] = match;
    if (code !== undefined) parts.push({ kind: "code", text: code });
    else if (strong !== undefined || strongUnderscore !== undefined)
      parts.push({ kind: "strong", text: strong ?? strongUnderscore ?? "" });
    else if (href !== undefined) {
      const safe = safeHref(href);
      const label = linkText || (whole.startsWith("!") ? "image" : href);
      parts.push(safe ? { kind: "link", text: label, href: safe } : { kind: "text", text: label });
    } else if (em !== undefined) parts.push({ kind: "em", text: em });
    else if (autolink !== undefined) parts.push({ kind: "link", text: autolink, href: autolink });
    last = start + whole.length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}
