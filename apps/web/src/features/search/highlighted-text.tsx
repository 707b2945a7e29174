const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};
const decodeEntities = (text: string) =>
  text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/**
 * The hub's highlighted passage (HTML-escaped text with the query's terms in `<em>`), shown as text with
 * <mark> around the terms: never parsed as HTML, so a card's markup cannot reach the page.
 */
export function HighlightedText({ formatted }: { formatted: string }) {
  const parts = formatted.split(/<em>(.*?)<\/em>/g);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one passage never move.
          <mark key={index} className="rounded-sm bg-accent-soft px-0.5 text-ink">
            {decodeEntities(part)}
          </mark>
        ) : (
          decodeEntities(part)
        ),
      )}
    </>
  );
}
