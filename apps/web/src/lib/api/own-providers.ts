import { queryOptions } from "@tanstack/react-query";
import { hubGet, modelPath } from "./hub-fetch.js";

/**
 * One own provider chatting with a model (`GET /api/models/{id}/own-providers`): the site's, or one of the
 * viewer's organizations' (named `org/name`), which the hub lists to that organization's members only. Called
 * through the hub's router `/v1` as `owner/name:provider`, never through the hub clients' provider routes.
 */
export interface ModelOwnProvider {
  provider: string;
  /** The organization whose members alone may use it; null for the site's. */
  org: string | null;
  task: "conversational";
  /** The name the provider's server knows the model by. */
  providerId: string;
  health: "up" | "down" | "unknown";
  pricing?: { input?: number; output?: number };
  contextLength?: number;
}

/**
 * The own providers of a model as `viewer` sees them: keyed by who is signed in, so that one viewer's list
 * is never shown to the next after a sign-out or a switch of account.
 */
export const modelOwnProvidersQuery = (modelId: string, viewer: string | null) =>
  queryOptions({
    queryKey: ["model-own-providers", modelId, viewer],
    queryFn: async ({ signal }): Promise<ModelOwnProvider[]> =>
      (await hubGet<ModelOwnProvider[]>(`/api/models/${modelPath(modelId)}/own-providers`, signal)).data,
    staleTime: 15_000,
  });
