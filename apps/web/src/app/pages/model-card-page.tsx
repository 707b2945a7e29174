import { PageTitle } from "../../components/ui/page-title.js";
import { ModelCard } from "../../features/model-page/index.js";
import { ModelSidebar } from "../../features/model-page/model-sidebar.js";
import { useRouteModel } from "../../lib/route-model.js";

export function ModelCardPage() {
  const model = useRouteModel();
  return (
    <>
      <PageTitle>{model.id}</PageTitle>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <ModelCard model={model} />
        <ModelSidebar model={model} />
      </div>
    </>
  );
}
