import { ModelCard } from "../../features/model-page/index.js";
import { useRouteModel } from "../../lib/route-model.js";

export function ModelCardPage() {
  return <ModelCard model={useRouteModel()} />;
}
