import type { Actor } from "../auth/actor.js";
import type { Authorizer } from "../auth/authorize.js";
import type { OwnProvidersSnapshot } from "./own-providers-registry.js";
import type { OwnProviderHealth } from "./own-providers-service.js";

/**
 * One own provider of a model as the model page shows it (its providers list, snippets and playground): the
 * router's name of it, whose it is, the name its server knows the model by, its health in this process, and
 * its offer as `/v1/models` tells it.
 */
export interface ModelOwnProvider {
  /** What callers write after the model's colon: a site provider's name, or an organization's `org/name`. */
  provider: string;
  /** The organization whose members alone may use it; null for the site's. */
  org: string | null;
  task: "conversational";
  providerId: string;
  health: OwnProviderHealth["status"];
  pricing?: { input?: number; output?: number };
  contextLength?: number;
}

export interface ModelOwnProvidersDeps {
  snapshot(): Promise<OwnProvidersSnapshot>;
  health(name: string): OwnProviderHealth;
  authorizer: Authorizer;
}

/**
 * The own providers chatting with a model that an actor may use: the site's, for everyone who sees the model;
 * an organization's, for those whose credential may run inference billed to it (as the router lets them:
 * verify-caller.ts), and for nobody else, so that the answer never tells another organization's provider
 * exists. The model is the caller's to see: the route checks it first.
 */
export function modelOwnProviders(deps: ModelOwnProvidersDeps) {
  return async (actor: Actor, modelId: string): Promise<ModelOwnProvider[]> => {
    const snapshot = await deps.snapshot();
    const served = snapshot.servedBy(modelId, "chat");
    const usable = new Map<number, boolean>();
    const shown: ModelOwnProvider[] = [];
    for (const { provider, servedName } of served) {
      // An organization's provider is named `org/name`: the organization's name is before the slash.
      const org = provider.orgId === null ? null : provider.name.slice(0, provider.name.indexOf("/"));
      if (provider.orgId !== null && org !== null) {
        if (!usable.has(provider.orgId)) {
          usable.set(
            provider.orgId,
            await deps.authorizer.can(actor, "inference", { kind: "namespace", name: org }),
          );
        }
        if (!usable.get(provider.orgId)) continue;
      }
      const offer = snapshot.offerOf(provider.name, modelId);
      const pricing =
        offer && (offer.inputPrice !== null || offer.outputPrice !== null)
          ? {
              ...(offer.inputPrice !== null ? { input: offer.inputPrice } : {}),
              ...(offer.outputPrice !== null ? { output: offer.outputPrice } : {}),
            }
          : undefined;
      shown.push({
        provider: provider.name,
        org,
        task: "conversational",
        providerId: servedName,
        health: deps.health(provider.name).status,
        ...(pricing ? { pricing } : {}),
        ...(offer?.contextLength != null ? { contextLength: offer.contextLength } : {}),
      });
    }
    return shown;
  };
}

export type ModelOwnProviders = ReturnType<typeof modelOwnProviders>;
