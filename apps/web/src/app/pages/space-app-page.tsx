import { Navigate } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { runsHere, SpaceApp } from "../../features/space-app/index.js";
import { repoPageUrl } from "../../lib/repo-ref.js";
import { useRouteRepo, useRouteRepoInfo } from "../../lib/route-model.js";
import { RepoCardPage } from "./repo-card-page.js";

// A space's own URL shows what a visitor came for (docs/decisions/space-app-url.md): the app of a space this
// hub runs, the card of any other. The other view is a tab with its own URL; its alias for the view the
// space's URL shows redirects there, so each view has one address.

/** `/spaces/{id}`: the app of a space this hub runs, else its card. */
export function SpaceHomePage() {
  const repo = useRouteRepo();
  const info = useRouteRepoInfo();
  if (!runsHere(info.sdk)) return <RepoCardPage />;
  return (
    <>
      <PageTitle>{`Space ${repo.id}`}</PageTitle>
      <SpaceApp repo={repo} sdk={info.sdk} />
    </>
  );
}

/** `/spaces/{id}/app`: why this hub does not run the space, or (an older link to a run space) its URL. */
export function SpaceAppPage() {
  const repo = useRouteRepo();
  const info = useRouteRepoInfo();
  if (runsHere(info.sdk)) return <Navigate to={repoPageUrl(repo)} replace />;
  return (
    <>
      <PageTitle>{`App · Space ${repo.id}`}</PageTitle>
      <SpaceApp repo={repo} sdk={info.sdk} />
    </>
  );
}

/** `/spaces/{id}/card`: the card of a space whose URL shows its app; any other's card is at its URL. */
export function SpaceCardPage() {
  const repo = useRouteRepo();
  const info = useRouteRepoInfo();
  if (!runsHere(info.sdk)) return <Navigate to={repoPageUrl(repo)} replace />;
  return <RepoCardPage title={`Card · Space ${repo.id}`} />;
}
