import { PageTitle } from "../../components/ui/page-title.js";
import { InferenceSnippetsPanel } from "../../features/inference-snippets/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function InferencePage() {
  const model = useRouteModel();
  return (
    <>
      <PageTitle>{`Inference for ${model.id}`}</PageTitle>
      <InferenceSnippetsPanel model={model} hubUrl={window.location.origin} />
    </>
  );
}
