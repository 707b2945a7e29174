import { ModelsList } from "../../features/models-list/index.js";

export function ModelsPage() {
  return <ModelsList />;
}
