import { PageTitle } from "../../components/ui/page-title.js";
import { ModelCard } from "../../features/model-page/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function ModelCardPage() {
  const model = useRouteModel();
  return (
    <>
      <PageTitle>{model.id}</PageTitle>
      <ModelCard model={model} />
    </>
  );
}
