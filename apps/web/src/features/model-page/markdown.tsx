import { type ComponentProps, isValidElement, memo, type ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { CodeBlock, codeLanguage } from "../../components/ui/code-block.js";

/**
 * Rendering costs about a millisecond per table cell in a browser: a card is shown up to this length, so
 * a hostile one cannot hold the page for long.
 */
export const MAX_CARD_CHARACTERS = 100_000;

const HEADING_CLASSES = ["text-2xl", "text-xl", "text-lg", "text-base", "text-base", "text-sm"];

// The page title is the model id (h1); card headings start one level below it.
function heading(level: number) {
  const Tag = `h${Math.min(level + 1, 6)}` as "h2";
  return ({ children }: { children?: ReactNode }) => (
    <Tag className={`mt-6 mb-2 font-semibold tracking-tight ${HEADING_CLASSES[level - 1]}`}>{children}</Tag>
  );
}

/** The text and language of a fenced block (`<pre><code class="language-x">`). */
function fencedCode(children: ReactNode): { code: string; language?: string } {
  const child = Array.isArray(children) ? children[0] : children;
  if (!isValidElement<{ className?: string; children?: ReactNode }>(child))
    return { code: String(children ?? "") };
  const language = /language-([\w+-]+)/.exec(child.props.className ?? "")?.[1];
  return { code: String(child.props.children ?? "").replace(/\n$/, ""), language };
}

const COMPONENTS: Components = {
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  p: ({ children }) => <p className="my-3 leading-relaxed">{children}</p>,
  a: ({ href, children }) => (
    <a
      href={href}
      className="text-accent underline [overflow-wrap:anywhere]"
      rel="noopener noreferrer nofollow"
    >
      {children}
    </a>
  ),
  ul: ({ children }) => <ul className="my-3 list-disc space-y-1 pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="my-3 list-decimal space-y-1 pl-6">{children}</ol>,
  blockquote: ({ children }) => (
    <blockquote className="my-3 border-l-4 border-line pl-3 text-muted">{children}</blockquote>
  ),
  code: ({ children }) => (
    <code className="rounded bg-raised px-1 py-0.5 font-mono text-[0.9em]">{children}</code>
  ),
  pre: ({ children }) => {
    const { code, language } = fencedCode(children);
    return (
      <div className="my-3">
        <CodeBlock
          code={code}
          label={`${language || "Code"} example from the model card`}
          language={codeLanguage(language)}
        />
      </div>
    );
  },
  // A table scrolls inside its own box: a wide one never widens the page.
  table: ({ children }) => (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    // biome-ignore lint/a11y/useSemanticElements: a div region is what wraps a scrolling table.
    <div className="my-3 max-w-full overflow-x-auto" role="region" aria-label="Table" tabIndex={0}>
      <table className="w-full border-collapse text-sm">{children}</table>
    </div>
  ),
  th: ({ children, style }: ComponentProps<"th">) => (
    <th style={style} className="border border-line bg-raised px-2 py-1 text-left font-semibold">
      {children}
    </th>
  ),
  td: ({ children, style }: ComponentProps<"td">) => (
    <td style={style} className="border border-line px-2 py-1">
      {children}
    </td>
  ),
  hr: () => <hr className="my-6 border-line" />,
  img: ({ src, alt }) =>
    typeof src === "string" ? <img src={src} alt={alt ?? ""} className="my-3 inline max-w-full" /> : null,
};

/**
 * A model card's Markdown (CommonMark + GitHub's tables, task lists, strikethrough, autolinks) as React
 * elements. Cards are user-written: raw HTML is not rendered, and the tree is sanitized with GitHub's
 * schema (no script, no event handler, no `javascript:` or `data:` URL) before it becomes elements.
 */
export const Markdown = memo(function Markdown({ source }: { source: string }) {
  const cut = source.length > MAX_CARD_CHARACTERS;
  return (
    <div className="min-w-0 text-[15px] text-ink [overflow-wrap:anywhere]">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeSanitize]}
        skipHtml
        components={COMPONENTS}
      >
        {cut ? source.slice(0, MAX_CARD_CHARACTERS) : source}
      </ReactMarkdown>
      {cut ? (
        <p className="mt-6 rounded-md bg-warn-soft p-3 text-sm text-warn">
          This card is longer than {MAX_CARD_CHARACTERS.toLocaleString("en")} characters; the rest is not
          shown.
        </p>
      ) : null}
    </div>
  );
});
