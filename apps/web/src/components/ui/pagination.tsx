interface PaginationProps {
  hasPrevious: boolean;
  nextCursor: string | undefined;
  onFirst: () => void;
  onNext: (cursor: string) => void;
}

/** Cursor pagination: the hub hands out the next page's cursor; the browser's Back goes to the previous. */
export function Pagination({ hasPrevious, nextCursor, onFirst, onNext }: PaginationProps) {
  if (!hasPrevious && !nextCursor) return null;
  const button =
    "rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:border-accent disabled:cursor-not-allowed disabled:opacity-50";
  return (
    <nav aria-label="Pagination" className="mt-4 flex justify-between gap-2">
      <button type="button" className={button} disabled={!hasPrevious} onClick={onFirst}>
        First page
      </button>
      <button
        type="button"
        className={button}
        disabled={!nextCursor}
        onClick={() => nextCursor && onNext(nextCursor)}
      >
        Next page
      </button>
    </nav>
  );
}
