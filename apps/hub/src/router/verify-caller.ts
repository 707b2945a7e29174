import type { Context } from "hono";
import type { Actor } from "../auth/actor.js";
import type { ActorResolver } from "../auth/actor-resolver.js";
import { AuthenticationRequiredError, PermissionDeniedError } from "../auth/auth-errors.js";
import type { Authorizer } from "../auth/authorize.js";
import { secretsEqual } from "../auth/hub-tokens.js";
import { CSRF_HEADER } from "../auth/middleware.js";
import { modelResource } from "../catalogue/model-lookup.js";
import type { StoredModel } from "../catalogue/model-records.js";
import { NotFoundError } from "../errors.js";

/** Who a router call is made for and who pays for it, as usage records and provider selection need it. */
export interface RouterCaller {
  /**
   * The user access token the call was made with (usage is recorded against it); for a call the web app made
   * with the user's browser session (the playground), the user's session usage record (session-usage-token.ts).
   */
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
  /**
   * The organizations whose own providers this call may use: the one billed (`X-HF-Bill-To`), else each one
   * the user belongs to and the credential may run inference for. Asked only when some organization has a
   * provider; worked out once per call.
   */
  providerOrgs(): Promise<ReadonlySet<number>>;
}

/** The cookie and CSRF header of a router call, for `VerifyCaller` when it has no Authorization header. */
export function browserCredentials(c: Context): BrowserCredentials {
  return { cookie: c.req.header("cookie"), csrfToken: c.req.header(CSRF_HEADER) };
}

/**
 * What a browser sends on its own: the session cookie, and the session's CSRF token that only this hub's pages
 * can read and set as a header (X-CSRF-Token; the router's CORS does not allow it from other origins).
 */
export interface BrowserCredentials {
  cookie: string | undefined;
  csrfToken: string | undefined;
}

/**
 * Checks a router call's `Authorization` header (or, without one, the browser session with its CSRF token)
 * and says who it is for, or throws the hub's 401/403 error. The one place the router decides whether a
 * credential may run inference: swap this function to change what credentials the router accepts.
 */
export type VerifyCaller = (
  authorization: string | undefined,
  billTo: string | undefined,
  browser?: BrowserCredentials,
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
  /** The token record a user's session calls are counted under (session-usage-token.ts); without it, the
   * router takes tokens only. */
  sessionUsageToken?: (userId: number) => Promise<number>,
): VerifyCaller {
  /**
   * The restricted models each resolved actor was allowed to use (allowed only: a refusal is decided afresh
   * every time). A gated model's grant is an access-request row, and reading it was the largest share of a
   * router call's work in the store (bench:router zero-latency profile 2026-11-30, ~3% of the hub's CPU per
   * call). Kept on the actor object the resolver hands out, so it lasts no longer than the resolver's cached
   * actor: a second at most (tokenCacheMs), and not at all past `invalidate()`, which an access-request
   * decision triggers here and, through the accounts-changed notification, on every other replica. A session
   * is resolved to a new actor on every call, so its calls are decided afresh.
   */
  const usableModels = new WeakMap<Actor, Set<string>>();
  const rememberUsable = (actor: Actor, key: string) => {
    let usable = usableModels.get(actor);
    if (!usable) {
      usable = new Set();
      usableModels.set(actor, usable);
    }
    // A caller naming model after model keeps at most this many; starting over costs a lookup each.
    if (usable.size >= MAX_USABLE_PER_ACTOR) usable.clear();
    usable.add(key);
  };
  return async (authorization, billTo, browser) => {
    const actor = authorization
      ? await resolver.resolve({ authorization })
      : await sessionActor(resolver, sessionUsageToken ? browser : undefined);
    if (actor.kind !== "user" || (actor.credential.kind !== "token" && actor.credential.kind !== "session")) {
      throw new PermissionDeniedError("The router takes user access tokens (hf_...).");
    }
    const namespace = billTo?.trim() || actor.user.name;
    await authorizer.authorize(actor, "inference", { kind: "namespace", name: namespace });
    const org = actor.memberships.find((m) => m.org.name.toLowerCase() === namespace.toLowerCase())?.org;
    let providerOrgs: Promise<ReadonlySet<number>> | undefined;
    const usable = usableModels.get(actor);
    return {
      tokenId:
        actor.credential.kind === "token"
          ? actor.credential.token.id
          : await sessionUsageToken!(actor.user.id),
      userId: actor.user.id,
      billToId: org?.id ?? null,
      preferredProviders: () => preferredProviders(actor.user.id),
      async mayUse(model, asNamed) {
        const key = usableKey(model);
        if (usable?.has(key)) return;
        const resource = modelResource(model);
        if (!(await authorizer.can(actor, "read", resource))) {
          throw new NotFoundError(`Model ${asNamed} does not exist on this hub.`);
        }
        await authorizer.authorize(actor, "inference", resource);
        rememberUsable(actor, key);
      },
      providerOrgs() {
        providerOrgs ??= (async () => {
          // Billed to an organization: its providers alone (a call billed to one is not run on another's).
          if (org) return new Set([org.id]);
          const usable = new Set<number>();
          for (const { org: member } of actor.memberships) {
            if (await authorizer.can(actor, "inference", { kind: "namespace", name: member.name })) {
              usable.add(member.id);
            }
          }
          return usable;
        })();
        return providerOrgs;
      },
    };
  };
}

const MAX_USABLE_PER_ACTOR = 256;

/** Everything of a model its decision rests on besides the actor: the same key, the same answer. */
function usableKey(model: Pick<StoredModel, "id" | "private" | "gated">): string {
  return `${model.id}\n${model.private ? 1 : 0}\n${model.gated || "-"}`;
}

/**
 * The signed-in user of a call without a token: their session, proven to come from this hub's pages by the
 * session's CSRF token (a page elsewhere can make the browser send the cookie, never the header). Without a
 * session the caller needs a token, as before.
 */
async function sessionActor(
  resolver: ActorResolver,
  browser: BrowserCredentials | undefined,
): Promise<Actor> {
  const actor = browser?.cookie ? await resolver.resolve({ cookie: browser.cookie }) : undefined;
  if (actor?.kind !== "user" || actor.credential.kind !== "session") {
    throw new AuthenticationRequiredError(
      'A hub token is required: send "Authorization: Bearer hf_...", or sign in to use the web playground.',
    );
  }
  const sent = browser?.csrfToken;
  if (!sent || !secretsEqual(sent, actor.credential.csrfToken)) {
    throw new PermissionDeniedError(
      `Missing or invalid ${CSRF_HEADER} header: reload the page and try again.`,
    );
  }
  return actor;
}
