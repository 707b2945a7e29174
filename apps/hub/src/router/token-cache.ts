import { bearerToken, hashToken, looksLikeHubToken } from "../auth/hub-tokens.js";
import { ForbiddenError, UnauthorizedError } from "../errors.js";
import type { Store } from "../store/store.js";
import type { TokenInfo, TokenScope } from "../store/tokens-table.js";

export interface TokenCacheOptions {
  /**
   * How long a verified token is trusted without reading the store again. Revocations made through this
   * process (admin API) clear the cache at once; one made by another process (the admin CLI on the same
   * database) is seen after at most this long.
   */
  ttlMs?: number;
  /** Most tokens remembered; the least recently used goes first. */
  maxEntries?: number;
  now?: () => number;
}

/**
 * Hub tokens verified by the router, remembered briefly by their SHA-256 (never the token itself), so that a
 * stream of calls with one token reads the store once per `ttlMs` instead of once per call. Only valid,
 * unrevoked tokens are remembered; unknown and revoked ones are looked up every time.
 */
export function createTokenCache(store: Store, options: TokenCacheOptions = {}) {
  const ttlMs = options.ttlMs ?? 1000;
  const maxEntries = options.maxEntries ?? 1000;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: re-inserting on use makes the first key the least recently used.
  const entries = new Map<string, { token: TokenInfo; expires: number }>();

  function lookUp(hash: string): TokenInfo | undefined {
    const entry = entries.get(hash);
    const time = now();
    if (entry && entry.expires > time) {
      entries.delete(hash);
      entries.set(hash, entry);
      return entry.token;
    }
    if (entry) entries.delete(hash);
    const token = store.tokens.findByHash(hash);
    if (token && !token.revokedAt) {
      entries.set(hash, { token, expires: time + ttlMs });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    }
    return token;
  }

  return {
    /** Same checks and messages as authenticateHubToken (auth/token-service.ts). */
    authenticate(header: string | undefined, scope: TokenScope): TokenInfo {
      const credential = bearerToken(header);
      if (!credential) {
        throw new UnauthorizedError('A hub token is required: send "Authorization: Bearer hf_...".');
      }
      if (!looksLikeHubToken(credential)) throw new UnauthorizedError("Invalid hub token.");
      const token = lookUp(hashToken(credential));
      if (!token) throw new UnauthorizedError("Invalid hub token.");
      if (token.revokedAt) throw new UnauthorizedError("This hub token has been revoked.");
      if (!token.scopes.includes(scope))
        throw new ForbiddenError(`This hub token lacks the "${scope}" scope.`);
      return token;
    },
    /** Forgets every token: called when a token is revoked. */
    invalidate(): void {
      entries.clear();
    },
    /** Notes that the store's last_used_at of a token was just updated. */
    touched(tokenId: number): void {
      const usedAt = new Date(now()).toISOString();
      for (const entry of entries.values()) {
        if (entry.token.id === tokenId) entry.token = { ...entry.token, lastUsedAt: usedAt };
      }
    },
    get size(): number {
      return entries.size;
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
