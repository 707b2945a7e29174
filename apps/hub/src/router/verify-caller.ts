import type { ActorResolver } from "../auth/actor-resolver.js";
import { AuthenticationRequiredError, PermissionDeniedError } from "../auth/auth-errors.js";
import type { Authorizer } from "../auth/authorize.js";
import { modelResource } from "../routes/model-lookup.js";
import type { StoredModel } from "../store/models-table.js";

/** Who a router call is made for and who pays for it, as usage records and provider selection need it. */
export interface RouterCaller {
  /** The user access token the call was made with (usage is recorded against it). */
  tokenId: number;
  userId: number;
  /** The organization the call is billed to (`X-HF-Bill-To`), or null for the user. */
  billToId: number | null;
  /** Providers in the caller's order of preference (from their settings); empty: the hub's default order. */
  preferredProviders: readonly string[];
  /** Whether the caller may see this model (a private one only its owner's members): authorize "read". */
  maySee(model: Pick<StoredModel, "id" | "private" | "gated">): Promise<boolean>;
}

/**
 * Checks a router call's `Authorization` header and says who it is for, or throws the hub's 401/403 error.
 * The one place the router decides whether a credential may run inference: swap this function to change
 * what credentials the router accepts.
 */
export type VerifyCaller = (
  authorization: string | undefined,
  billTo: string | undefined,
) => Promise<RouterCaller>;

/**
 * User access tokens allowed to run inference (`authorize(actor, "inference", namespace)`), billed to the
 * user, or to the organization named by `X-HF-Bill-To` when the user is a member of it. Tokens are
 * resolved through the actor resolver's short-lived cache, shared with the API (a revocation clears both).
 */
export function userTokenVerifier(
  resolver: ActorResolver,
  authorizer: Authorizer,
  /** The user's order of providers (Settings > Inference Providers), read on every call: keep it cached. */
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
      preferredProviders: await preferredProviders(actor.user.id),
      maySee: (model) => authorizer.can(actor, "read", modelResource(model)),
    };
  };
}
