import { useParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { CommitList, CommitView, FileTree, FileView } from "../../features/repo-files/index.js";
import { useRevisionPath, useRouteRepo } from "../../lib/route-model.js";

export function FilesPage() {
  const repo = useRouteRepo();
  const { revision, path } = useRevisionPath();
  return (
    <>
      <PageTitle>{`Files of ${repo.id}${path ? `/${path}` : ""} at ${revision}`}</PageTitle>
      <FileTree key={`${revision}/${path}`} repo={repo} revision={revision} dir={path} />
    </>
  );
}

export function FilePage() {
  const repo = useRouteRepo();
  const { revision, path } = useRevisionPath();
  return (
    <>
      <PageTitle>{`${path} · ${repo.id} at ${revision}`}</PageTitle>
      <FileView repo={repo} revision={revision} path={path} />
    </>
  );
}

export function CommitsPage() {
  const repo = useRouteRepo();
  const { revision, path } = useRevisionPath();
  return (
    <>
      <PageTitle>{`History of ${repo.id}${path ? `/${path}` : ""} at ${revision}`}</PageTitle>
      <CommitList key={path} repo={repo} revision={revision} path={path} />
    </>
  );
}

export function CommitPage() {
  const repo = useRouteRepo();
  const { oid = "" } = useParams();
  return (
    <>
      <PageTitle>{`Commit ${oid.slice(0, 7)} · ${repo.id}`}</PageTitle>
      <CommitView repo={repo} oid={oid} />
    </>
  );
}
