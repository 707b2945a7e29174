import type { AccessToken, Membership, OrgRole, User } from "../accounts/types.js";

/** How the caller proved who they are. */
export type Credential =
  | { kind: "token"; token: AccessToken }
  /** A signed-in browser: state-changing requests must also carry the session's CSRF token. */
  | { kind: "session"; idHash: string; csrfToken: string };

/**
 * Who is making a request. Resolved once per request (auth/actor-resolver.ts) and handed to `authorize`;
 * it carries everything authorize needs about the caller, so deciding needs no further lookup.
 */
export type Actor =
  | { kind: "anonymous" }
  /** The hub's operator, with the ADMIN_TOKEN of the configuration: may do everything. */
  | { kind: "operator" }
  | { kind: "user"; user: User; memberships: Membership[]; credential: Credential };

export const ANONYMOUS: Actor = { kind: "anonymous" };

/** The role the user holds in `namespace` (their own name counts as admin), or undefined. */
export function roleIn(actor: Actor, namespace: string): OrgRole | undefined {
  if (actor.kind !== "user") return undefined;
  const wanted = namespace.toLowerCase();
  if (actor.user.name.toLowerCase() === wanted) return "admin";
  return actor.memberships.find((m) => m.org.name.toLowerCase() === wanted)?.role;
}

export function actorName(actor: Actor): string {
  return actor.kind === "user" ? actor.user.name : actor.kind;
}
