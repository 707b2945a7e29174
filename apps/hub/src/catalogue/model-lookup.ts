import type { Context } from "hono";
import type { Actor } from "../auth/actor.js";
import { type RepoResource, visibility } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import type { Store } from "../store/store.js";
import { inPreferredOrder, type ProviderMappings } from "./mapping-record.js";
import type { VisibleModels } from "./model-filters.js";
import type { StoredModel } from "./models-table.js";

/** A catalogue model as a resource for authorize(). */
export function modelResource(model: Pick<StoredModel, "id" | "private" | "gated">): RepoResource {
  const [owner = "", name = ""] = model.id.split("/");
  return {
    kind: "repo",
    type: "model",
    owner,
    name,
    private: model.private ?? false,
    gated: model.gated ?? false,
  };
}

/** Which private models listings and counts may include for this caller. */
export function visibleModels(c: Context<HubEnv>): VisibleModels {
  return visibility(c.get("actor"), "model");
}

/**
 * A model's provider mappings as the caller should see them: a signed-in user's preferred providers first
 * (Settings > Inference Providers), since clients choosing `provider="auto"` take the first live one.
 */
export async function mappingsForCaller(
  c: Context,
  store: Store,
  modelId: string,
): Promise<ProviderMappings> {
  const actor = c.get("actor") as Actor | undefined;
  const preferred = actor?.kind === "user" ? await store.providerPreferences.get(actor.user.id) : [];
  return inPreferredOrder(await store.mappings.forModel(modelId), preferred);
}
