import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { HighlightedText } from "./highlighted-text.js";
import { FULL_TEXT_PAGE, fullTextQuery, REPO_KINDS, type RepoKind, repoHref } from "./search-api.js";

const KIND_NAMES: Record<RepoKind, string> = { model: "Models", dataset: "Datasets", space: "Spaces" };
const KIND_LABEL: Record<RepoKind, string> = { model: "Model", dataset: "Dataset", space: "Space" };

const filterClass = (active: boolean) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${active ? "bg-accent-soft text-accent" : "text-muted hover:text-ink"}`;

/**
 * The search page's body: a search form, the type filter (all, models, datasets, spaces) and the ranked
 * full-text results with their highlighted passages, paged. The query lives in the URL (`q`, `type`, `p`).
 */
export function SearchResults() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q")?.trim() ?? "";
  const typeParam = params.get("type");
  const type = REPO_KINDS.includes(typeParam as RepoKind) ? (typeParam as RepoKind) : undefined;
  const page = Math.max(0, Number.parseInt(params.get("p") ?? "0", 10) || 0);
  const results = useQuery(fullTextQuery(q, type, page * FULL_TEXT_PAGE));
  const [draft, setDraft] = useState(q);
  useEffect(() => setDraft(q), [q]);

  const withParams = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined || value === "") next.delete(key);
      else next.set(key, value);
    }
    return next;
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setParams(withParams({ q: draft.trim(), p: undefined }));
  };
  const total = results.data?.numTotalHits ?? 0;
  const lastPage = Math.max(0, Math.ceil(total / FULL_TEXT_PAGE) - 1);

  return (
    <div className="flex flex-col gap-4">
      <search>
        <form onSubmit={submit} className="flex max-w-2xl gap-2" aria-label="Search the hub">
          <label htmlFor="full-text-q" className="sr-only">
            Search text
          </label>
          <input
            id="full-text-q"
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="Words from a model card, an id, a tag…"
            className="h-9 min-w-0 flex-1 rounded-md border border-line bg-surface px-3 text-sm placeholder:text-muted focus:border-accent"
          />
          <button
            type="submit"
            className="inline-flex h-9 items-center rounded-md bg-accent px-4 text-sm font-medium text-accent-ink"
          >
            Search
          </button>
        </form>
      </search>
      <nav aria-label="Result types" className="flex flex-wrap gap-1 border-b border-line pb-2">
        <Link
          to={`?${withParams({ type: undefined, p: undefined })}`}
          className={filterClass(type === undefined)}
          aria-current={type === undefined ? "page" : undefined}
        >
          All
        </Link>
        {REPO_KINDS.map((kind) => (
          <Link
            key={kind}
            to={`?${withParams({ type: kind, p: undefined })}`}
            className={filterClass(type === kind)}
            aria-current={type === kind ? "page" : undefined}
          >
            {KIND_NAMES[kind]}
          </Link>
        ))}
      </nav>
      {!q ? <p className="text-sm text-muted">Type what you are looking for above.</p> : null}
      {q && results.isPending ? <p className="text-sm text-muted">Searching…</p> : null}
      {results.isError ? (
        <p role="alert" className="text-sm text-danger">
          {results.error.message}
        </p>
      ) : null}
      {q && results.data ? (
        <>
          <p className="text-sm text-muted" aria-live="polite">
            {total === 0
              ? `Nothing matches “${q}”${type ? ` among ${KIND_NAMES[type].toLowerCase()}` : ""}.`
              : `${total} ${total === 1 ? "result" : "results"} for “${q}”`}
          </p>
          <ol className="flex flex-col divide-y divide-line" aria-label="Search results">
            {results.data.hits.map((hit) => (
              <li key={`${hit.repoType}/${hit.repoId}`} className="flex flex-col gap-1 py-3">
                <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
                  <Link
                    to={repoHref(hit.repoType, hit.repoId)}
                    className="break-all font-medium text-accent underline"
                  >
                    {hit.repoId}
                  </Link>
                  <span className="text-xs text-muted">{KIND_LABEL[hit.repoType]}</span>
                  {hit.private ? (
                    <span className="rounded-full border border-line px-2 text-xs text-muted">Private</span>
                  ) : null}
                </div>
                {hit.formatted.text ? (
                  <p className="break-words text-sm">
                    <HighlightedText formatted={hit.formatted.text} />
                  </p>
                ) : null}
                {hit.tags.length ? (
                  <p className="break-words text-xs text-muted">{hit.tags.slice(0, 8).join(" · ")}</p>
                ) : null}
              </li>
            ))}
          </ol>
          {lastPage > 0 ? (
            <nav aria-label="Pagination" className="flex items-center justify-between gap-2">
              {page > 0 ? (
                <Link
                  to={`?${withParams({ p: page > 1 ? String(page - 1) : undefined })}`}
                  className="underline"
                >
                  Previous page
                </Link>
              ) : (
                <span />
              )}
              <span className="text-sm text-muted">
                Page {page + 1} of {lastPage + 1}
              </span>
              {page < lastPage ? (
                <Link to={`?${withParams({ p: String(page + 1) })}`} className="underline">
                  Next page
                </Link>
              ) : (
                <span />
              )}
            </nav>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
