import { lazy, Suspense } from "react";
import { PageTitle } from "../../components/ui/page-title.js";
import { RepoCard, RepoSidebar } from "../../features/model-page/index.js";
import { useRouteRepo, useRouteRepoInfo } from "../../lib/route-model.js";

// The viewer is its own chunk: a space's page, and the card of a dataset before it, never wait for it.
const DatasetViewer = lazy(() =>
  import("../../features/dataset-viewer/index.js").then((module) => ({ default: module.DatasetViewer })),
);

/**
 * A dataset's or space's card with what its files say beside it; a dataset's viewer above them. `title`:
 * the page's, when the card is not what the repository's own URL shows (a space whose app runs here).
 */
export function RepoCardPage({ title }: { title?: string }) {
  const repo = useRouteRepo();
  const info = useRouteRepoInfo();
  const kind = repo.type === "space" ? "space" : "dataset";
  return (
    <>
      <PageTitle>{title ?? `${repo.type === "space" ? "Space" : "Dataset"} ${repo.id}`}</PageTitle>
      {repo.type === "dataset" ? (
        <Suspense fallback={<p className="text-muted">Loading the viewer…</p>}>
          <DatasetViewer dataset={repo.id} />
        </Suspense>
      ) : null}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <RepoCard repo={repo} cardText={info.cardText} siblings={info.siblings} />
        <RepoSidebar info={info} kind={kind} />
      </div>
    </>
  );
}
