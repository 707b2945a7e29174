import { useParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { LibrarySnippets } from "../../features/library-snippets/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function LibraryPage() {
  const { library = "" } = useParams();
  const model = useRouteModel();
  return (
    <>
      <PageTitle>{`${model.id} with ${library}`}</PageTitle>
      <LibrarySnippets model={model} library={library} />
    </>
  );
}
