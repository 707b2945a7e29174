import { memo, useEffect, useMemo, useState } from "react";
import { CopyButton } from "./copy-button.js";

import { asSlashComments, highlightShell, restoreHashComments } from "./highlight-shell.js";

type Highlighter = (code: string) => string;

/** Languages the block colours; anything else shows plain. */
export type CodeLanguage = "python" | "js" | "sh" | "plain";

export function codeLanguage(name: string | undefined): CodeLanguage {
  const lowered = (name ?? "").toLowerCase();
  if (["python", "py", "python3"].includes(lowered)) return "python";
  if (["js", "javascript", "ts", "typescript", "jsx", "tsx", "json"].includes(lowered)) return "js";
  if (["sh", "bash", "shell", "console", "zsh"].includes(lowered)) return "sh";
  return "plain";
}

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

function useSugarHigh(enabled: boolean): Highlighter | undefined {
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

// Switching back to a snippet seen before (another tab, another provider) reuses its highlighting.
const highlighted = new Map<string, string>();
const HIGHLIGHT_CACHE_SIZE = 64;

function cachedHighlight(code: string, language: CodeLanguage, sugarHigh: Highlighter): string {
  const key = `${language}\u0000${code}`;
  let html = highlighted.get(key);
  if (html === undefined) {
    html = language === "python" ? restoreHashComments(sugarHigh(asSlashComments(code))) : sugarHigh(code);
    if (highlighted.size >= HIGHLIGHT_CACHE_SIZE)
      highlighted.delete(highlighted.keys().next().value as string);
    highlighted.set(key, html);
  }
  return html;
}

interface CodeBlockProps {
  code: string;
  /** Accessible name of the block and of its copy button, e.g. "Python snippet". */
  label: string;
  language?: CodeLanguage;
  /** Wrap long lines (prompts, embed tags) instead of scrolling sideways. */
  wrap?: boolean;
  testId?: string;
}

/**
 * Highlighted code with a copy button. sugar-high and the shell highlighter escape the source before they
 * add their spans, so the generated HTML cannot carry markup from the code itself.
 */
export const CodeBlock = memo(function CodeBlock({
  code,
  label,
  language = "plain",
  wrap = false,
  testId,
}: CodeBlockProps) {
  const sugarHigh = useSugarHigh(language === "python" || language === "js");
  const html = useMemo(() => {
    if (language === "sh") return highlightShell(code);
    if (!sugarHigh) return null;
    return cachedHighlight(code, language, sugarHigh);
  }, [code, language, sugarHigh]);
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
        className={`overflow-x-auto p-4 pr-20 font-mono text-[13px] leading-relaxed ${wrap ? "whitespace-pre-wrap break-all" : ""}`}
      >
        {html === null ? (
          <code>{code}</code>
        ) : (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: highlighter output is escaped text in spans.
          <code dangerouslySetInnerHTML={{ __html: html }} />
        )}
      </pre>
    </figure>
  );
});
