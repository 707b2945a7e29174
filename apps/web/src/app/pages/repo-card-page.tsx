import { PageTitle } from "../../components/ui/page-title.js";
import { RepoCard, RepoSidebar } from "../../features/model-page/index.js";
import { useRouteRepo, useRouteRepoInfo } from "../../lib/route-model.js";

/** A dataset's or space's card with what its files say beside it. */
export function RepoCardPage() {
  const repo = useRouteRepo();
  const info = useRouteRepoInfo();
  const kind = repo.type === "space" ? "space" : "dataset";
  return (
    <>
      <PageTitle>{`${repo.type === "space" ? "Space" : "Dataset"} ${repo.id}`}</PageTitle>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <RepoCard repo={repo} cardText={info.cardText} siblings={info.siblings} />
        <RepoSidebar info={info} kind={kind} />
      </div>
    </>
  );
}
