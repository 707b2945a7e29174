import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useCallback } from "react";
import { useSearchParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { Pagination } from "../../components/ui/pagination.js";
import { modelListQuery } from "../../lib/api/models.js";
import { taskLabel } from "../../lib/task-labels.js";
import { ANY, type ListParams, readListParams, toApiQuery, writeListParams } from "./list-params.js";
import { ModelRow } from "./model-row.js";

// The filters (and the select primitive they use) load beside the list, not in front of it.
const ModelsFilters = lazy(() =>
  import("./models-filters.js").then((module) => ({ default: module.ModelsFilters })),
);

/** "235 models", "1 model": how many match, from the hub's count (the page's length when it gives none). */
export function matchCount(total: number | undefined, shown: number): string {
  const count = total ?? shown;
  return `${count.toLocaleString("en")} ${count === 1 ? "model" : "models"}`;
}

/** Search, filters, sort and pagination over the hub's models, all kept in the URL. */
export function ModelsList() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = readListParams(searchParams);
  const query = useQuery({ ...modelListQuery(toApiQuery(params)), placeholderData: keepPreviousData });

  const update = useCallback(
    (change: Partial<ListParams>, options: { replace?: boolean } = {}) => {
      setSearchParams(
        (current) => {
          // A new filter or sort starts from the first page.
          const next = { ...readListParams(current), cursor: undefined, ...change };
          return writeListParams(next);
        },
        { replace: options.replace ?? false },
      );
    },
    [setSearchParams],
  );

  const models = query.data?.models ?? [];
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[16rem_1fr]">
      <PageTitle>{params.task === ANY ? "Models" : `${taskLabel(params.task)} models`}</PageTitle>
      <Suspense fallback={<div aria-hidden="true" className="min-h-64 rounded-lg" />}>
        <ModelsFilters params={params} onChange={update} />
      </Suspense>
      <section aria-labelledby="models-heading" aria-busy={query.isFetching} className="min-w-0">
        <div className="mb-3 flex items-baseline justify-between gap-2">
          <h1 id="models-heading" className="text-xl font-semibold tracking-tight">
            Models
          </h1>
          <p className="text-sm text-muted" aria-live="polite">
            {query.isPending ? "Loading…" : matchCount(query.data?.total, models.length)}
          </p>
        </div>
        {query.isError ? (
          <p role="alert" className="rounded-md bg-danger-soft p-3 text-danger">
            Could not load models: {query.error.message}
          </p>
        ) : null}
        {!query.isPending && models.length === 0 && !query.isError ? (
          <p className="rounded-md border border-dashed border-line p-8 text-center text-muted">
            No model matches these filters.
          </p>
        ) : null}
        <ul
          className={`grid grid-cols-1 gap-2 sm:grid-cols-2 ${query.isPlaceholderData ? "opacity-60" : ""}`}
        >
          {models.map((model) => (
            <li key={model.id}>
              <ModelRow model={model} />
            </li>
          ))}
        </ul>
        <Pagination
          hasPrevious={params.cursor !== undefined}
          nextCursor={query.data?.nextCursor}
          onFirst={() => update({})}
          onNext={(cursor) => update({ cursor })}
        />
      </section>
    </div>
  );
}
