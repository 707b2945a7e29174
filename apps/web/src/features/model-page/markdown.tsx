import { Fragment, memo, useMemo } from "react";
import { CodeBlock, codeLanguage } from "../../components/ui/code-block.js";
import { type Block, parseBlocks, parseInline } from "./markdown-blocks.js";

function InlineText({ text }: { text: string }) {
  return (
    <>
      {parseInline(text).map((part, index) => {
        const key = `${index}-${part.kind}`;
        switch (part.kind) {
          case "code":
            return (
              <code key={key} className="rounded bg-raised px-1 py-0.5 font-mono text-[0.9em]">
                {part.text}
              </code>
            );
          case "strong":
            return <strong key={key}>{part.text}</strong>;
          case "em":
            return <em key={key}>{part.text}</em>;
          case "link":
            return (
              <a
                key={key}
                href={part.href}
                className="text-accent underline"
                rel="noopener noreferrer nofollow"
              >
                {part.text}
              </a>
            );
          default:
            return <Fragment key={key}>{part.text}</Fragment>;
        }
      })}
    </>
  );
}

const HEADING_CLASSES = ["text-2xl", "text-xl", "text-lg", "text-base", "text-base", "text-sm"];

function BlockView({ block }: { block: Block }) {
  switch (block.kind) {
    case "heading": {
      // The page title is the model id (h1); card headings start one level below it.
      const level = Math.min(block.level + 1, 6);
      const Tag = `h${level}` as "h2";
      return (
        <Tag className={`mt-6 mb-2 font-semibold tracking-tight ${HEADING_CLASSES[block.level - 1]}`}>
          <InlineText text={block.text} />
        </Tag>
      );
    }
    case "paragraph":
      return (
        <p className="my-3 leading-relaxed">
          <InlineText text={block.text} />
        </p>
      );
    case "code":
      return (
        <div className="my-3">
          <CodeBlock
            code={block.code}
            label={`${block.language || "Code"} example from the model card`}
            language={codeLanguage(block.language)}
          />
        </div>
      );
    case "list": {
      const Tag = block.ordered ? "ol" : "ul";
      return (
        <Tag className={`my-3 space-y-1 pl-6 ${block.ordered ? "list-decimal" : "list-disc"}`}>
          {block.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: items are static text in card order.
            <li key={index}>
              <InlineText text={item} />
            </li>
          ))}
        </Tag>
      );
    }
    case "quote":
      return (
        <blockquote className="my-3 border-l-4 border-line pl-3 text-muted">
          <InlineText text={block.text} />
        </blockquote>
      );
    case "table":
      return (
        <div className="my-3 overflow-x-auto">
          <table className="w-full border-collapse text-sm">
            <thead>
              <tr>
                {block.header.map((cell, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional.
                  <th key={index} className="border border-line bg-raised px-2 py-1 text-left font-semibold">
                    <InlineText text={cell} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional.
                <tr key={rowIndex}>
                  {row.map((cell, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional.
                    <td key={index} className="border border-line px-2 py-1">
                      <InlineText text={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case "rule":
      return <hr className="my-6 border-line" />;
  }
}

/** Renders a model card's Markdown as React elements (text only: no raw HTML reaches the page). */
export const Markdown = memo(function Markdown({ source }: { source: string }) {
  const blocks = useMemo(() => parseBlocks(source), [source]);
  return (
    <div className="min-w-0 text-[15px] text-ink">
      {blocks.map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional and static for a source.
        <BlockView key={index} block={block} />
      ))}
    </div>
  );
});
