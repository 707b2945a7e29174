import { useSearchParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { EditFileForm, UploadForm } from "../../features/repo-upload/index.js";
import { useRevisionPath, useRouteRepo } from "../../lib/route-model.js";

export function UploadPage() {
  const repo = useRouteRepo();
  const { revision, path } = useRevisionPath();
  return (
    <>
      <PageTitle>{`Upload files to ${repo.id}`}</PageTitle>
      <UploadForm repo={repo} revision={revision} dir={path} />
    </>
  );
}

export function NewFilePage() {
  const repo = useRouteRepo();
  const { revision, path } = useRevisionPath();
  const [params] = useSearchParams();
  return (
    <>
      <PageTitle>{`New file in ${repo.id}`}</PageTitle>
      <EditFileForm repo={repo} revision={revision} dir={path} initialName={params.get("filename") ?? ""} />
    </>
  );
}

export function EditFilePage() {
  const repo = useRouteRepo();
  const { revision, path } = useRevisionPath();
  return (
    <>
      <PageTitle>{`Edit ${path} · ${repo.id}`}</PageTitle>
      <EditFileForm key={path} repo={repo} revision={revision} existing={path} />
    </>
  );
}
