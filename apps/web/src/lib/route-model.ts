import { useOutletContext } from "react-router";
import type { ModelInfo } from "./api/models.js";

/** The model page layout hands the loaded model to its section pages through the outlet context. */
export function useRouteModel(): ModelInfo {
  return useOutletContext<ModelInfo>();
}
