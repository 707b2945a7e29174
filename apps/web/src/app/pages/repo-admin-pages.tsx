import { useParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { DiscussionList, DiscussionView } from "../../features/community/index.js";
import { RepoSettings } from "../../features/repo-settings/repo-settings.js";
import { useRouteRepo } from "../../lib/route-model.js";

export function CommunityPage() {
  const repo = useRouteRepo();
  return (
    <>
      <PageTitle>{`Community of ${repo.id}`}</PageTitle>
      <DiscussionList repo={repo} />
    </>
  );
}

export function DiscussionPage() {
  const repo = useRouteRepo();
  const num = Number.parseInt(useParams().num ?? "", 10);
  return (
    <>
      <PageTitle>{`#${num} · ${repo.id}`}</PageTitle>
      <DiscussionView key={num} repo={repo} num={num} />
    </>
  );
}

export function SettingsPage() {
  const repo = useRouteRepo();
  return (
    <>
      <PageTitle>{`Settings of ${repo.id}`}</PageTitle>
      <RepoSettings repo={repo} />
    </>
  );
}
