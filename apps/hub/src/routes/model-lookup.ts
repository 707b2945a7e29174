import type { Context } from "hono";
import { NotFoundError } from "../errors.js";
import { modelIdFromParts } from "../model-id.js";
import type { StoredModel } from "../store/models-table.js";
import type { Store } from "../store/store.js";

/** The model named by the `:owner/:name` of the route, or a 404. */
export function modelFromRoute(c: Context, store: Store): StoredModel {
  const id = modelIdFromParts(c.req.param("owner") ?? "", c.req.param("name") ?? "");
  const model = store.models.get(id);
  if (!model) throw new NotFoundError(`Model ${id} not found.`);
  return model;
}
