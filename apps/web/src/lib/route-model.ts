import { useOutletContext, useParams } from "react-router";
import type { ModelInfo } from "./api/models.js";
import type { RepoRef } from "./repo-ref.js";

/** The model page layout hands the loaded model to its section pages through the outlet context. */
export function useRouteModel(): ModelInfo {
  return useOutletContext<ModelInfo>();
}

/** The repository a section page is about (the model layout's model, for now). */
export function useRouteRepo(): RepoRef {
  const model = useRouteModel();
  return { type: "model", id: model.id };
}

/** The `:rev` and the splat path of a files URL (`tree/:rev/*`), decoded. */
export function useRevisionPath(): { revision: string; path: string } {
  const params = useParams();
  return { revision: params.rev ?? "main", path: (params["*"] ?? "").replace(/\/+$/, "") };
}
