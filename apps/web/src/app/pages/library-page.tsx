import { useParams } from "react-router";
import { LibrarySnippets } from "../../features/library-snippets/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function LibraryPage() {
  const { library = "" } = useParams();
  return <LibrarySnippets model={useRouteModel()} library={library} />;
}
