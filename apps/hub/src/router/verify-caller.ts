import type { ActorResolver } from "../auth/actor-resolver.js";
import { AuthenticationRequiredError, PermissionDeniedError } from "../auth/auth-errors.js";
import type { Authorizer } from "../auth/authorize.js";
import { modelResource } from "../catalogue/model-lookup.js";
import type { StoredModel } from "../catalogue/model-records.js";
import { NotFoundError } from "../errors.js";

/** Who a router call is made for and who pays for it, as usage records and provider selection need it. */
export interface RouterCaller {
  /** The user access token the call was made with (usage is recorded against it). */
  tokenId: number;
  userId: number;
  /** The organization the call is billed to (`X-HF-Bill-To`), or null for the user. */
  billToId: number | null;
  /**
   * Providers in the caller's order of preference (from their settings); empty: the hub's default order.
   * Read when a call lets the router choose (the settings table caches it, and forgets it when it changes).
   */
  preferredProviders(): Promise<readonly string[]>;
  /**
   * Throws unless the caller may run this model: a private model the caller may not see answers as a missing
   * one (NotFoundError naming `asNamed`, as the caller named it); a gated one needs the user's grant (an accepted
   * access request, or membership: authorize "inference" on the model, the GatedRepo refusal); a token that may
   * run inference needs no permission to read the model's files for it.
   */
  mayUse(model: Pick<StoredModel, "id" | "private" | "gated">, asNamed: string): Promise<void>;
}

/**
 * Checks a router call's `Authorization` header and says who it is for, or throws the hub's 401/403 error.
 * The one place the router decides whether a credential may run inference: swap this function to change what
 * credentials the router accepts.
 */
export type VerifyCaller = (
  authorization: string | undefined,
  billTo: string | undefined,
) => Promise<RouterCaller>;

/**
 * User access tokens allowed to run inference (`authorize(actor, "inference", namespace)`), billed to the
 * user, or to the organization named by `X-HF-Bill-To` when the user is a member of it. Tokens are resolved
 * through the actor resolver's short-lived cache, shared with the API: a revocation, a disabled user or a
 * changed membership clears it (on every replica, through the store's accounts-changed notification), and
 * the next call is decided afresh.
 */
export function userTokenVerifier(
  resolver: ActorResolver,
  authorizer: Authorizer,
  /** The user's order of providers (Settings > Inference Providers), read on every call that lets the router
   * choose: keep it cached. */
  preferredProviders: (userId: number) => Promise<readonly string[]> = async () => [],
): VerifyCaller {
  return async (authorization, billTo) => {
    if (!authorization) {
      throw new AuthenticationRequiredError('A hub token is required: send "Authorization: Bearer hf_...".');
    }
    const actor = await resolver.resolve({ authorization });
    if (actor.kind !== "user" || actor.credential.kind !== "token") {
      throw new PermissionDeniedError("The router takes user access tokens (hf_...).");
    }
    const namespace = billTo?.trim() || actor.user.name;
    await authorizer.authorize(actor, "inference", { kind: "namespace", name: namespace });
    const org = actor.memberships.find((m) => m.org.name.toLowerCase() === namespace.toLowerCase())?.org;
    return {
      tokenId: actor.credential.token.id,
      userId: actor.user.id,
      billToId: org?.id ?? null,
      preferredProviders: () => preferredProviders(actor.user.id),
      async mayUse(model, asNamed) {
        const resource = modelResource(model);
        if (!(await authorizer.can(actor, "read", resource))) {
          throw new NotFoundError(`Model ${asNamed} does not exist on this hub.`);
        }
        await authorizer.authorize(actor, "inference", resource);
      },
    };
  };
}
