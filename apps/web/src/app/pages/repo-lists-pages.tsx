import { PageTitle } from "../../components/ui/page-title.js";
import { ReposList } from "../../features/repo-lists/index.js";

export function DatasetsPage() {
  return (
    <>
      <PageTitle>Datasets</PageTitle>
      <ReposList type="dataset" />
    </>
  );
}

export function SpacesPage() {
  return (
    <>
      <PageTitle>Spaces</PageTitle>
      <ReposList type="space" />
    </>
  );
}
