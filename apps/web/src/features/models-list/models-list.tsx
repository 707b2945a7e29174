import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { PageTitle } from "../../components/ui/page-title.js";
import { PagedResults } from "../../components/ui/paged-results.js";
import { modelListQuery } from "../../lib/api/models.js";
import { taskLabel } from "../../lib/task-labels.js";
import { useListSearchParams } from "../../lib/use-list-search-params.js";
import { ANY, readListParams, toApiQuery, writeListParams } from "./list-params.js";
import { ModelRow } from "./model-row.js";

// The filters (and the select primitive they use) are a chunk of their own, fetched beside the list's data
// (the route's loader starts it); the list waits for them, so they never pop in above rows already read.
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
  const [params, update] = useListSearchParams(readListParams, writeListParams);
  const query = useQuery({ ...modelListQuery(toApiQuery(params)), placeholderData: keepPreviousData });
  const models = query.data?.items ?? [];
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[16rem_1fr]">
      <PageTitle>{params.task === ANY ? "Models" : `${taskLabel(params.task)} models`}</PageTitle>
      <Suspense
        fallback={
          <p className="text-sm text-muted lg:col-span-2" aria-live="polite">
            Loading models…
          </p>
        }
      >
        <ModelsFilters params={params} onChange={update} />
        <PagedResults
          headingId="models-heading"
          title="Models"
          count={matchCount(query.data?.total, models.length)}
          query={query}
          what="models"
          empty="No model matches these filters."
          items={models}
          itemKey={(model) => model.id}
          renderItem={(model) => <ModelRow model={model} />}
          hasPrevious={params.cursor !== undefined}
          nextCursor={query.data?.nextCursor}
          onPage={(cursor) => update({ cursor })}
        />
      </Suspense>
    </div>
  );
}
