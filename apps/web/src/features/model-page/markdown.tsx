import { useQuery } from "@tanstack/react-query";
import type { Root } from "hast";
import { type Components, toJsxRuntime } from "hast-util-to-jsx-runtime";
import {
  type ComponentProps,
  createContext,
  isValidElement,
  memo,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
} from "react";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";
import { CodeBlock, codeLanguage } from "../../components/ui/code-block.js";
import { ErrorAlert } from "../../components/ui/query-state.js";
import { useReplaceFirstView } from "../../lib/first-view.js";
import { siteQuery } from "../admin/admin-api.js";
import { cardImageAllowed } from "./card-images.js";
import { cardTreeInWorker, parsedCardTree } from "./card-in-worker.js";
import { type CardTree, MAX_CARD_CHARACTERS } from "./card-protocol.js";

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
  p: ({ children, node }) =>
    node?.properties.dataTableCut !== undefined ? (
      <p className="my-3 rounded-md bg-warn-soft p-2 text-sm text-warn">{children}</p>
    ) : (
      <p className="my-3 leading-relaxed">{children}</p>
    ),
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
  img: ({ src, alt }) => (typeof src === "string" ? <CardImage src={src} alt={alt ?? ""} /> : null),
};

/** Origins a card's images may load from besides the hub (`GET /api/site`), provided by Markdown. */
const CardImageOrigins = createContext<readonly string[]>([]);

/** Where the page is (relative image sources resolve against it); a placeholder outside a browser (tests). */
const pageUrl = () => (typeof window === "undefined" ? "http://localhost/" : window.location.href);

/** A card's image, when it comes from the hub or an allowed origin (card-images.ts); else a link to it. */
function CardImage({ src, alt }: { src: string; alt: string }) {
  const allowed = useContext(CardImageOrigins);
  if (cardImageAllowed(src, pageUrl(), allowed)) {
    return <img src={src} alt={alt} className="my-3 inline max-w-full" />;
  }
  let host = "another site";
  try {
    host = new URL(src, pageUrl()).host || host;
  } catch {}
  return (
    <a
      href={src}
      className="text-accent underline [overflow-wrap:anywhere]"
      rel="noopener noreferrer nofollow"
      title="Not loaded: this hub shows card images from itself and the sites its operator allows"
    >
      {alt || "Image"} (image on {host})
    </a>
  );
}

/** Top-level blocks (paragraphs, tables, lists...) added to the page per slice. */
const BLOCKS_PER_SLICE = 40;

/** Blocks `start` to `end` of a card as React elements: a slice, once rendered, is never rendered again. */
const CardSlice = memo(function CardSlice({ tree, start, end }: { tree: Root; start: number; end: number }) {
  return toJsxRuntime(
    { type: "root", children: tree.children.slice(start, end) },
    {
      Fragment,
      jsx,
      jsxs,
      components: COMPONENTS,
      ignoreInvalidStyle: true,
      passKeys: true,
      passNode: true,
    },
  );
});

/**
 * A card's sanitized tree (cardToTree) as React elements; with a note when the card was cut, and `wholeUrl`
 * (the raw file) offered for the rest.
 */
export const MarkdownTree = memo(function MarkdownTree({
  card,
  wholeUrl,
  progressive = true,
}: {
  card: CardTree;
  wholeUrl?: string;
  /** Add the card's blocks a slice at a time (each slice its own small commit and layout); off for tests. */
  progressive?: boolean;
}) {
  // The card is shown: the hub's first view of it (a model's card page) goes in this commit.
  useReplaceFirstView();
  const total = card.tree.children.length;
  const [shown, setShown] = useState(progressive ? Math.min(total, BLOCKS_PER_SLICE) : total);
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() =>
      startTransition(() => setShown((count) => Math.min(total, count + BLOCKS_PER_SLICE))),
    );
    return () => clearTimeout(timer);
  }, [shown, total]);
  const slices: number[] = [];
  for (let start = 0; start < shown; start += BLOCKS_PER_SLICE) slices.push(start);
  return (
    <div className="min-w-0 text-[15px] text-ink [overflow-wrap:anywhere]">
      {slices.map((start) => (
        <CardSlice
          key={start}
          tree={card.tree}
          start={start}
          end={Math.min(shown, start + BLOCKS_PER_SLICE)}
        />
      ))}
      {card.plainText !== undefined ? (
        <>
          <p className="mb-3 rounded-md bg-warn-soft p-3 text-sm text-warn">
            This card nests too deeply to be read as Markdown; it is shown as plain text.
          </p>
          <div className="whitespace-pre-wrap font-mono text-sm">{card.plainText}</div>
        </>
      ) : null}
      {card.cut && shown >= total ? (
        <p className="mt-6 rounded-md bg-warn-soft p-3 text-sm text-warn">
          This card is longer than {MAX_CARD_CHARACTERS.toLocaleString("en")} characters; the rest is not
          shown.
          {wholeUrl ? (
            <>
              {" "}
              <a href={wholeUrl} className="font-medium underline">
                Read the whole README.md
              </a>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
});

function CardError({ message }: { message: string }) {
  useReplaceFirstView();
  return <ErrorAlert message={message} />;
}

/**
 * User-written Markdown (model cards, discussion comments), parsed and sanitized in a worker so that a huge
 * or hostile card never holds the page's thread: the page renders only the bounded, sanitized tree.
 */
const NO_ORIGINS: readonly string[] = [];

export const Markdown = memo(function Markdown({ source, wholeUrl }: { source: string; wholeUrl?: string }) {
  // A card the route's loader had parsed already shows in the first render, with no "Rendering…" frame.
  const [state, setState] = useState<{ source: string; card?: CardTree; error?: string }>(() => ({
    source,
    card: parsedCardTree(source),
  }));
  useEffect(() => {
    let current = true;
    // A transition: React renders a big card in slices, yielding to input between them (only the DOM
    // commit is one task).
    cardTreeInWorker(source).then(
      (card) =>
        current &&
        startTransition(() =>
          setState((shown) => (shown.source === source && shown.card === card ? shown : { source, card })),
        ),
      (error: Error) => current && setState({ source, error: error.message }),
    );
    return () => {
      current = false;
    };
  }, [source]);
  const imageOrigins = useQuery(siteQuery).data?.cardImageOrigins ?? NO_ORIGINS;
  if (state.source === source && state.card) {
    return (
      <CardImageOrigins.Provider value={imageOrigins}>
        <MarkdownTree card={state.card} wholeUrl={wholeUrl} />
      </CardImageOrigins.Provider>
    );
  }
  if (state.source === source && state.error) {
    return <CardError message={state.error} />;
  }
  return (
    <p className="text-muted" aria-busy="true">
      Rendering…
    </p>
  );
});
