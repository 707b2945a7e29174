import { memo, useEffect, useMemo, useState } from "react";
import { CopyButton } from "./copy-button.js";

type Highlighter = (code: string) => string;

// The highlighter is its own chunk: pages show plain code at once and colour it when it arrives.
let highlighter: Highlighter | undefined;
let loading: Promise<Highlighter> | undefined;
function loadHighlighter(): Promise<Highlighter> {
  loading ??= import("sugar-high").then((module) => {
    highlighter = module.highlight;
    return module.highlight;
  });
  return loading;
}

function useHighlighter(enabled: boolean): Highlighter | undefined {
  const [loaded, setLoaded] = useState<Highlighter | undefined>(() => highlighter);
  useEffect(() => {
    if (!enabled || loaded) return;
    let live = true;
    loadHighlighter().then((highlight) => live && setLoaded(() => highlight));
    return () => {
      live = false;
    };
  }, [enabled, loaded]);
  return enabled ? loaded : undefined;
}

interface CodeBlockProps {
  code: string;
  /** Accessible name of the block and of its copy button, e.g. "Python snippet". */
  label: string;
  /** Highlighting suits C-like languages (python, js, sh); others show plain. */
  highlighted?: boolean;
  testId?: string;
}

/**
 * Highlighted code with a copy button. sugar-high escapes the source before it adds its spans,
 * so the generated HTML cannot carry markup from the code itself.
 */
export const CodeBlock = memo(function CodeBlock({
  code,
  label,
  highlighted = true,
  testId,
}: CodeBlockProps) {
  const highlight = useHighlighter(highlighted);
  const html = useMemo(() => (highlight ? highlight(code) : null), [code, highlight]);
  return (
    <figure className="relative min-w-0 overflow-hidden rounded-lg border border-line bg-raised">
      <figcaption className="sr-only">{label}</figcaption>
      <div className="absolute right-2 top-2">
        <CopyButton text={code} what={label} />
      </div>
      <pre
        data-testid={testId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        tabIndex={0}
        className="overflow-x-auto p-4 pr-20 font-mono text-[13px] leading-relaxed"
      >
        {html === null ? (
          <code>{code}</code>
        ) : (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sugar-high output is escaped text in spans.
          <code dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </figure>
  );
});
