import type { Element, ElementContent, Properties, Root, RootContent } from "hast";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/**
 * A model card's opening as HTML for the page's first view (first-view.ts): what paints before the web app's
 * scripts have run. The pipeline is the card worker's (apps/web/src/features/model-page/card-markdown.ts):
 * CommonMark + GitHub's extensions, raw HTML dropped, GitHub's sanitize schema; the classes are those the web
 * app gives each element (apps/web/src/features/model-page/markdown.tsx), so the text paints in the boxes
 * React will paint it in. apps/web/e2e/first-view.test.ts holds the two to the same tree.
 */
const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSanitize).freeze();

/** Characters of a card the first view renders: more than a screen holds, little for the hub to parse. */
export const FIRST_VIEW_CARD_CHARACTERS = 4000;
/** Nesting the first view renders; a deeper card (a hostile one) gets no first view, only the app's render. */
const MAX_FIRST_VIEW_NESTING = 64;

const HEADING_CLASSES = ["text-2xl", "text-xl", "text-lg", "text-base", "text-base", "text-sm"];
const LINK_CLASS = "text-accent underline [overflow-wrap:anywhere]";

/** The opening of `source` cut at a blank line (never inside a fenced code block), or all of a short card. */
export function cardOpening(source: string, limit = FIRST_VIEW_CARD_CHARACTERS): string {
  if (source.length <= limit) return source;
  let cut = source.lastIndexOf("\n\n", limit);
  if (cut <= 0) return "";
  // An odd number of fences before the cut: the cut is inside a code block; end before that block.
  const fences = [...source.slice(0, cut).matchAll(/^ {0,3}(?:`{3,}|~{3,})/gm)];
  if (fences.length % 2 === 1) cut = source.lastIndexOf("\n\n", fences[fences.length - 1]?.index ?? 0);
  return cut > 0 ? source.slice(0, cut) : "";
}

/**
 * The first view of a card: its opening (cardOpening) parsed and sanitized as the card worker does, as HTML
 * with the web app's classes. Undefined when there is nothing to show or the card is not one to render here
 * (too deep, or a parser failure): the app renders it as it always did.
 */
export function cardFirstViewHtml(
  source: string,
  pageOrigin: string,
  imageOrigins: readonly string[],
): string | undefined {
  const opening = cardOpening(source);
  if (!opening.trim()) return undefined;
  let tree: Root;
  try {
    tree = processor.runSync(processor.parse(opening)) as Root;
  } catch {
    return undefined;
  }
  if (deeperThan(tree, MAX_FIRST_VIEW_NESTING)) return undefined;
  const html = new CardHtml(pageOrigin, imageOrigins).children(tree.children);
  return html.trim() ? html : undefined;
}

function deeperThan(root: Root, limit: number): boolean {
  const pending: [node: { children?: unknown[] }, depth: number][] = [[root, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (depth > limit) return true;
    for (const child of node.children ?? []) pending.push([child as { children?: unknown[] }, depth + 1]);
  }
  return false;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Attributes a sanitized card element keeps (hast property name, HTML attribute name). */
const KEPT_PROPERTIES: Record<string, string> = {
  className: "class",
  type: "type",
  checked: "checked",
  disabled: "disabled",
  title: "title",
};

/** A sanitized card tree written as HTML the way markdown.tsx's components render each element. */
class CardHtml {
  constructor(
    private readonly pageOrigin: string,
    private readonly imageOrigins: readonly string[],
  ) {}

  children(nodes: readonly (ElementContent | RootContent)[]): string {
    return nodes.map((node) => this.node(node)).join("");
  }

  private node(node: ElementContent | RootContent): string {
    if (node.type === "text") return escapeHtml(node.value);
    if (node.type !== "element") return "";
    return this.element(node);
  }

  private element(node: Element): string {
    const inner = () => this.children(node.children);
    const heading = /^h([1-6])$/.exec(node.tagName);
    if (heading) {
      const level = Number(heading[1]);
      const tag = `h${Math.min(level + 1, 6)}`;
      return `<${tag} class="mt-6 mb-2 font-semibold tracking-tight ${HEADING_CLASSES[level - 1]}">${inner()}</${tag}>`;
    }
    switch (node.tagName) {
      case "p":
        return `<p class="my-3 leading-relaxed">${inner()}</p>`;
      case "a":
        return `<a${attribute("href", node.properties.href)} class="${LINK_CLASS}" rel="noopener noreferrer nofollow">${inner()}</a>`;
      case "ul":
        return `<ul class="my-3 list-disc space-y-1 pl-6">${inner()}</ul>`;
      case "ol":
        return `<ol class="my-3 list-decimal space-y-1 pl-6">${inner()}</ol>`;
      case "blockquote":
        return `<blockquote class="my-3 border-l-4 border-line pl-3 text-muted">${inner()}</blockquote>`;
      case "code":
        return `<code class="rounded bg-raised px-1 py-0.5 font-mono text-[0.9em]">${inner()}</code>`;
      case "pre":
        return this.codeBlock(node);
      case "table":
        return `<div class="my-3 max-w-full overflow-x-auto" role="region" aria-label="Table" tabindex="0"><table class="w-full border-collapse text-sm">${inner()}</table></div>`;
      case "th":
        return `<th${alignment(node.properties)} class="border border-line bg-raised px-2 py-1 text-left font-semibold">${inner()}</th>`;
      case "td":
        return `<td${alignment(node.properties)} class="border border-line px-2 py-1">${inner()}</td>`;
      case "hr":
        return `<hr class="my-6 border-line">`;
      case "img":
        return this.image(node);
      case "br":
        return "<br>";
      case "input":
        return `<input${keptAttributes(node.properties)}>`;
      default:
        return `<${node.tagName}${keptAttributes(node.properties)}>${inner()}</${node.tagName}>`;
    }
  }

  /** A fenced block as CodeBlock lays it out (without highlighting or its copy button, which the app adds). */
  private codeBlock(node: Element): string {
    const code = textOf(node).replace(/\n$/, "");
    return `<div class="my-3"><figure class="relative min-w-0 overflow-hidden rounded-lg border border-line bg-raised"><pre tabindex="0" class="overflow-x-auto p-4 pr-20 font-mono text-[13px] leading-relaxed"><code>${escapeHtml(code)}</code></pre></figure></div>`;
  }

  /** An image from the hub or an allowed origin; any other is a link, as the app's CardImage decides. */
  private image(node: Element): string {
    const src = node.properties.src;
    if (typeof src !== "string") return "";
    const alt = typeof node.properties.alt === "string" ? node.properties.alt : "";
    let url: URL | undefined;
    try {
      url = new URL(src, `${this.pageOrigin}/`);
    } catch {}
    const web = url && (url.protocol === "https:" || url.protocol === "http:");
    if (url && web && (url.origin === this.pageOrigin || this.imageOrigins.includes(url.origin))) {
      return `<img${attribute("src", src)}${attribute("alt", alt)} class="my-3 inline max-w-full">`;
    }
    const host = url?.host || "another site";
    return `<a${attribute("href", src)} class="${LINK_CLASS}" rel="noopener noreferrer nofollow" title="Not loaded: this hub shows card images from itself and the sites its operator allows">${escapeHtml(alt || "Image")} (image on ${escapeHtml(host)})</a>`;
  }
}

function textOf(node: ElementContent): string {
  if (node.type === "text") return node.value;
  return node.type === "element" ? node.children.map(textOf).join("") : "";
}

function attribute(name: string, value: unknown): string {
  if (value === undefined || value === null || value === false) return "";
  if (value === true) return ` ${name}`;
  return ` ${name}="${escapeHtml(Array.isArray(value) ? value.join(" ") : String(value))}"`;
}

function keptAttributes(properties: Properties): string {
  return Object.entries(KEPT_PROPERTIES)
    .map(([property, name]) => attribute(name, properties[property]))
    .join("");
}

/** A table cell's alignment as the app writes it (hast-util-to-jsx-runtime turns `align` into a style). */
function alignment(properties: Properties): string {
  const align = properties.align;
  return align === "left" || align === "right" || align === "center" ? ` style="text-align:${align}"` : "";
}
