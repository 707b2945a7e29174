import { PageTitle } from "../../components/ui/page-title.js";
import { SpaceApp } from "../../features/space-app/index.js";
import { useRouteRepo, useRouteRepoInfo } from "../../lib/route-model.js";

/** A space's App tab: its static site, or why this hub does not run it. */
export function SpaceAppPage() {
  const repo = useRouteRepo();
  const info = useRouteRepoInfo();
  return (
    <>
      <PageTitle>{`App · Space ${repo.id}`}</PageTitle>
      <SpaceApp repo={repo} sdk={info.sdk} />
    </>
  );
}
