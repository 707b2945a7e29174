import { authenticateHubToken } from "../auth/token-service.js";
import type { Store } from "../store/store.js";
import type { TokenCache } from "./token-cache.js";

/** Who a router call is made for, as usage records and provider selection need it. */
export interface RouterCaller {
  /** The hub token the call was made with (usage is recorded against it). */
  tokenId: number;
  /** Providers in the caller's order of preference (from their settings); empty: the hub's default order. */
  preferredProviders: readonly string[];
}

/**
 * Checks a router call's `Authorization` header and says who it is for, or throws the hub's 401/403 error.
 * The one place the router decides whether a credential may run inference: swap this function to change
 * what credentials the router accepts.
 */
export type VerifyCaller = (authorization: string | undefined) => RouterCaller;

/** Hub tokens with the `inference` scope, through the short-lived cache when there is one. */
export function hubTokenVerifier(store: Store, tokenCache?: TokenCache): VerifyCaller {
  return (authorization) => {
    const token = tokenCache
      ? tokenCache.authenticate(authorization, "inference")
      : authenticateHubToken(store, authorization, "inference");
    // last_used_at is for people ("used today?"): a minute of precision spares a write per call.
    if (!token.lastUsedAt || Date.now() - Date.parse(token.lastUsedAt) > 60_000) {
      store.tokens.markUsed(token.id);
      tokenCache?.touched(token.id);
    }
    return { tokenId: token.id, preferredProviders: [] };
  };
}
