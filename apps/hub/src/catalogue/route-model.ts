import type { Context } from "hono";
import type { HubEnv } from "../http/hub-env.js";
import type { CatalogueService } from "./catalogue-service.js";
import { modelIdFromParts } from "./model-id.js";

/** The model named by the `:owner/:name` of the route, when the caller may see it. */
export function modelOfRoute(
  c: Context<HubEnv>,
  catalogue: CatalogueService,
): ReturnType<CatalogueService["model"]> {
  return catalogue.model(
    c.get("actor"),
    c.get("authorizer"),
    modelIdFromParts(c.req.param("owner") ?? "", c.req.param("name") ?? ""),
  );
}
