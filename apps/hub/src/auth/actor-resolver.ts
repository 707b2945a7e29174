import type { AccountsStore } from "../accounts/accounts-store.js";
import type { AccessToken } from "../accounts/types.js";
import { type Actor, ANONYMOUS } from "./actor.js";
import { InvalidCredentialsError } from "./auth-errors.js";
import { bearerToken, hashToken, looksLikeHubToken, secretsEqual } from "./hub-tokens.js";

export const SESSION_COOKIE = "modelhub_session";

export interface ActorResolverOptions {
  accounts: AccountsStore;
  /** The operator's credential (ADMIN_TOKEN); undefined: no operator. */
  adminToken?: string;
  /**
   * How long a verified token is trusted without reading the store again (router calls come in streams).
   * Revocations made through this process clear the cache at once (`invalidate()`); one made by another
   * process (the admin CLI, another replica) is seen after at most this long.
   */
  tokenCacheMs?: number;
  maxCachedTokens?: number;
  now?: () => number;
}

/** What a request presents: its Authorization header and its Cookie header. */
export interface RequestCredentials {
  authorization?: string | null;
  cookie?: string | null;
}

/** The session id in a Cookie header, if any. */
export function sessionIdFromCookie(cookie: string | null | undefined): string | undefined {
  if (!cookie) return undefined;
  for (const part of cookie.split(";")) {
    const at = part.indexOf("=");
    if (at !== -1 && part.slice(0, at).trim() === SESSION_COOKIE)
      return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * Turns a request's credentials into an Actor. A bearer credential that is not valid (unknown, revoked,
 * expired, user disabled) is refused with 401 InvalidCredentialsError, as the public hub does; a session
 * cookie that is no longer valid just leaves the caller anonymous (the browser keeps a stale cookie).
 */
export function createActorResolver(options: ActorResolverOptions) {
  const { accounts } = options;
  const ttlMs = options.tokenCacheMs ?? 1000;
  const maxEntries = options.maxCachedTokens ?? 1000;
  const now = options.now ?? Date.now;
  // Keyed by the token itself, held in memory for at most the cache's lifetime: a hit costs no SHA-256 (the
  // store keeps only hashes; this map is the process's own, never written anywhere). Insertion order is
  // expiry order (a hit does not extend an entry), so the first key is the one to drop when the map is full.
  const cache = new Map<string, { actor: Actor & { kind: "user" }; expires: number }>();

  function expired(token: AccessToken, at: number): boolean {
    return token.expiresAt !== null && Date.parse(token.expiresAt) <= at;
  }

  /** The cached actor of a token, when the cache holds it and neither the entry nor the token has expired. */
  function cachedActor(credential: string, at: number): (Actor & { kind: "user" }) | undefined {
    const cached = cache.get(credential);
    if (!cached || cached.expires <= at) return undefined;
    return expired((cached.actor.credential as { token: AccessToken }).token, at) ? undefined : cached.actor;
  }

  async function userActor(userId: number, credential: Extract<Actor, { kind: "user" }>["credential"]) {
    const user = await accounts.users.byId(userId);
    if (!user || user.disabled) return undefined;
    const memberships = await accounts.orgs.membershipsOf(user.id);
    return { kind: "user" as const, user, memberships, credential };
  }

  async function fromToken(credential: string): Promise<Actor> {
    if (!looksLikeHubToken(credential)) {
      if (options.adminToken !== undefined && secretsEqual(credential, options.adminToken))
        return { kind: "operator" };
      throw new InvalidCredentialsError();
    }
    const at = now();
    const hit = cachedActor(credential, at);
    if (hit) return hit;
    // An expired entry (or one whose token expired since) is read again: the store decides.
    cache.delete(credential);
    const token = await accounts.tokens.byHash(hashToken(credential));
    if (!token || token.revokedAt || expired(token, at)) throw new InvalidCredentialsError();
    // last_used_at is for people ("used today?"): a minute of precision spares a write per call.
    if (!token.lastUsedAt || at - Date.parse(token.lastUsedAt) > 60_000) {
      await accounts.tokens.markUsed(token.id);
      token.lastUsedAt = new Date(at).toISOString();
    }
    const actor = await userActor(token.userId, { kind: "token", token });
    if (!actor) throw new InvalidCredentialsError();
    cache.set(credential, { actor, expires: at + ttlMs });
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
    return actor;
  }

  async function fromSession(sessionId: string): Promise<Actor> {
    const idHash = hashToken(sessionId);
    const session = await accounts.sessions.byIdHash(idHash);
    const at = now();
    if (!session || session.revokedAt || Date.parse(session.expiresAt) <= at) return ANONYMOUS;
    if (at - Date.parse(session.lastSeenAt) > 60_000) await accounts.sessions.touch(idHash);
    return (
      (await userActor(session.userId, { kind: "session", idHash, csrfToken: session.csrfToken })) ??
      ANONYMOUS
    );
  }

  return {
    async resolve(credentials: RequestCredentials): Promise<Actor> {
      const authorization = credentials.authorization ?? undefined;
      if (authorization !== undefined && authorization !== "") {
        const credential = bearerToken(authorization);
        if (!credential) throw new InvalidCredentialsError();
        return fromToken(credential);
      }
      const sessionId = sessionIdFromCookie(credentials.cookie);
      return sessionId ? fromSession(sessionId) : ANONYMOUS;
    },
    /** Forgets every verified token: call after revoking a token or changing a user or membership. */
    invalidate(): void {
      cache.clear();
    },
    get cachedTokens(): number {
      return cache.size;
    },
  };
}

export type ActorResolver = ReturnType<typeof createActorResolver>;
