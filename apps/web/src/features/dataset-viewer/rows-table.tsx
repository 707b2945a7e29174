import { useQueries } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ErrorAlert } from "../../components/ui/query-state.js";
import {
  type ColumnStatistics,
  type RowSource,
  type SplitName,
  VIEWER_PAGE_ROWS,
  type ViewerRow,
  viewerPageQuery,
} from "../../lib/api/dataset-viewer.js";
import { cellText } from "./cell-text.js";
import { ColumnHeader } from "./column-header.js";
import { MediaCell, mediaKindOf } from "./media-cell.js";

/** Every row is one line this tall, so that a row's place follows from its index (virtual scrolling). */
const ROW_PX = 36;
/** Rows drawn beyond the visible ones, above and below. */
const OVERSCAN = 10;
const VIEW_PX = 432;
/** Browsers cap an element's height (Chromium near 33.5M px): past this, scrolling maps to rows by ratio. */
const MAX_SCROLL_PX = 10_000_000;

/**
 * A split's rows (all, a search's or a filter's) in a table that scrolls through millions: only the rows in
 * view are drawn, and only their pages (100 rows each, the API's limit) are fetched. The scroll box takes
 * focus, so arrows and Page Up/Down scroll it from the keyboard; a row's number opens the whole row.
 */
export function RowsTable({
  dataset,
  split,
  source,
  statistics,
  onOpenRow,
}: {
  dataset: string;
  split: SplitName;
  source: RowSource;
  statistics: ColumnStatistics[];
  onOpenRow: (row: ViewerRow) => void;
}) {
  const box = useRef<HTMLElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  // A new split, search or filter starts at its first row.
  const sourceKey = JSON.stringify([split, source]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is what changed
  useEffect(() => {
    box.current?.scrollTo({ top: 0 });
    setScrollTop(0);
  }, [sourceKey]);

  // Known once the first page is in; until then, the page size.
  const [knownTotal, setKnownTotal] = useState(0);
  const fullPx = knownTotal * ROW_PX;
  const scrollPx = Math.min(fullPx, MAX_SCROLL_PX);
  // Where the scroll box's top is in the full list (scrollTop itself below the cap).
  const scale = scrollPx > VIEW_PX ? (fullPx - VIEW_PX) / (scrollPx - VIEW_PX) : 1;
  const virtualTop = scrollTop * scale;
  const topIndex = Math.floor(virtualTop / ROW_PX);
  const first = Math.max(0, topIndex - OVERSCAN);
  const last = topIndex + Math.ceil(VIEW_PX / ROW_PX) + OVERSCAN;
  const pageOffsets: number[] = [];
  for (
    let offset = Math.floor(first / VIEWER_PAGE_ROWS) * VIEWER_PAGE_ROWS;
    offset <= last;
    offset += VIEWER_PAGE_ROWS
  ) {
    pageOffsets.push(offset);
  }
  if (!pageOffsets.includes(0)) pageOffsets.unshift(0);
  const pages = useQueries({
    queries: pageOffsets.map((offset) => viewerPageQuery(dataset, split, source, offset)),
  });
  const head = pages[0]!;
  const headTotal = head.data?.num_rows_total ?? 0;
  useEffect(() => setKnownTotal(headTotal), [headTotal]);
  if (head.isError) return <ErrorAlert message={head.error.message} />;
  if (!head.data) return <p className="text-muted">Loading rows…</p>;
  const total = head.data.num_rows_total;
  const features = head.data.features;
  const end = Math.min(total, last + 1);
  const start = Math.min(first, end);
  const rowAt = (index: number): ViewerRow | undefined => {
    const at = pageOffsets.indexOf(Math.floor(index / VIEWER_PAGE_ROWS) * VIEWER_PAGE_ROWS);
    return pages[at]?.data?.rows[index % VIEWER_PAGE_ROWS];
  };
  // The drawn rows start where the top row sits in the box (scrollTop minus how far that row is scrolled).
  const topSpacer = Math.max(0, scrollTop - (virtualTop - topIndex * ROW_PX) - (topIndex - start) * ROW_PX);
  const bottomSpacer = Math.max(
    0,
    Math.min(total * ROW_PX, MAX_SCROLL_PX) - topSpacer - (end - start) * ROW_PX,
  );
  const failed = pages.find((page) => page.isError);
  const statisticsOf = new Map(statistics.map((column) => [column.column_name, column]));

  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-muted" aria-live="polite">
        {source.kind === "rows"
          ? `${total.toLocaleString("en")} rows`
          : `${total.toLocaleString("en")} matching ${total === 1 ? "row" : "rows"}`}
        {head.data.partial ? " (partial: only the split's first 5 GB were converted)" : ""}
      </p>
      {failed?.error ? <ErrorAlert message={failed.error.message} /> : null}
      <section
        ref={box}
        aria-label={`Rows of ${split.config} / ${split.split}`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
        tabIndex={0}
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
        className="overflow-auto rounded-md border border-line bg-surface"
        style={{ height: total === 0 ? "auto" : VIEW_PX }}
        data-testid="viewer-rows"
      >
        <table className="min-w-full border-collapse text-sm" aria-rowcount={total + 1}>
          <thead className="sticky top-0 z-10 bg-raised">
            <tr aria-rowindex={1}>
              <th scope="col" className="px-2 py-1.5 text-left align-top text-xs font-medium text-muted">
                #
              </th>
              {features.map((feature) => (
                <th key={feature.name} scope="col" className="px-2 py-1.5 text-left align-top">
                  <ColumnHeader
                    name={feature.name}
                    type={feature.type}
                    statistics={statisticsOf.get(feature.name)}
                  />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {topSpacer > 0 ? (
              <tr>
                <td colSpan={features.length + 1} style={{ height: topSpacer, padding: 0 }} />
              </tr>
            ) : null}
            {Array.from({ length: end - start }, (_, step) => {
              const index = start + step;
              const row = rowAt(index);
              return (
                <tr
                  key={index}
                  aria-rowindex={index + 2}
                  className="border-t border-line"
                  style={{ height: ROW_PX }}
                >
                  <td className="px-2 text-xs text-muted">
                    {row ? (
                      <button
                        type="button"
                        onClick={() => onOpenRow(row)}
                        aria-label={`Open row ${row.row_idx}`}
                        className="rounded px-1 tabular-nums hover:text-accent"
                      >
                        {row.row_idx}
                      </button>
                    ) : (
                      "…"
                    )}
                  </td>
                  {features.map((feature) => {
                    const media = mediaKindOf(feature.type);
                    if (media) {
                      return (
                        <td key={feature.name} className="whitespace-nowrap px-2">
                          {row ? (
                            <MediaCell
                              kind={media}
                              value={row.row[feature.name]}
                              label={`${feature.name} of row ${row.row_idx}`}
                            />
                          ) : null}
                        </td>
                      );
                    }
                    const text = row ? cellText(row.row[feature.name]) : "";
                    return (
                      <td
                        key={feature.name}
                        className="max-w-xs truncate whitespace-nowrap px-2"
                        title={text.length > 60 ? text.slice(0, 2000) : undefined}
                      >
                        {row && row.row[feature.name] === null ? (
                          <span className="text-muted">null</span>
                        ) : (
                          text
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
            {bottomSpacer > 0 ? (
              <tr>
                <td colSpan={features.length + 1} style={{ height: bottomSpacer, padding: 0 }} />
              </tr>
            ) : null}
          </tbody>
        </table>
        {total === 0 ? <p className="p-3 text-sm text-muted">No rows.</p> : null}
      </section>
    </div>
  );
}
