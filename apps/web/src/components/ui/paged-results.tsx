import type { ReactNode } from "react";
import { Pagination } from "./pagination.js";

/** What a list needs to know of its query (a TanStack Query result). */
interface ListQueryState {
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  error: Error | null;
  isPlaceholderData: boolean;
}

interface PagedResultsProps<Item> {
  headingId: string;
  title: ReactNode;
  /** "235 models": how many match, shown once the first page arrived. */
  count: string;
  /** Beside the count: a link to create one, say. */
  action?: ReactNode;
  query: ListQueryState;
  /** What failed to load, in "Could not load {what}: …". */
  what: string;
  /** Shown when nothing matches. */
  empty: string;
  listLabel?: string;
  items: Item[];
  itemKey: (item: Item) => string;
  renderItem: (item: Item) => ReactNode;
  hasPrevious: boolean;
  nextCursor: string | undefined;
  /** Another page: the first (no cursor) or the next. */
  onPage: (cursor?: string) => void;
}

/** One page of a searchable list: its heading and count, load error, empty state, rows and pagination. */
export function PagedResults<Item>(props: PagedResultsProps<Item>) {
  const { query, items } = props;
  return (
    <section aria-labelledby={props.headingId} aria-busy={query.isFetching} className="min-w-0">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h1 id={props.headingId} className="text-xl font-semibold tracking-tight">
          {props.title}
        </h1>
        <p className="text-sm text-muted" aria-live="polite">
          {query.isPending ? "Loading…" : props.count}
        </p>
        {props.action}
      </div>
      {query.isError ? (
        <p role="alert" className="rounded-md bg-danger-soft p-3 text-danger">
          Could not load {props.what}: {query.error?.message}
        </p>
      ) : null}
      {!query.isPending && items.length === 0 && !query.isError ? (
        <p className="rounded-md border border-dashed border-line p-8 text-center text-muted">
          {props.empty}
        </p>
      ) : null}
      <ul
        aria-label={props.listLabel}
        className={`grid grid-cols-1 gap-2 sm:grid-cols-2 ${query.isPlaceholderData ? "opacity-60" : ""}`}
      >
        {items.map((item) => (
          <li key={props.itemKey(item)}>{props.renderItem(item)}</li>
        ))}
      </ul>
      <Pagination
        hasPrevious={props.hasPrevious}
        nextCursor={props.nextCursor}
        onFirst={() => props.onPage()}
        onNext={(cursor) => props.onPage(cursor)}
      />
    </section>
  );
}
