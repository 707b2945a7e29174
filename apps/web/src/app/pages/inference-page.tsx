import { InferenceSnippetsPanel } from "../../features/inference-snippets/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function InferencePage() {
  return <InferenceSnippetsPanel model={useRouteModel()} hubUrl={window.location.origin} />;
}
