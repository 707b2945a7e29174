import { createHash } from "node:crypto";
import type { AccessToken, Membership, Namespace, Org, User } from "./types.js";

/** A stable 24-hex id per account, in the shape of the public hub's ids (`id` in whoami). */
export function accountObjectId(account: Pick<Namespace, "id" | "kind">): string {
  return createHash("sha256").update(`${account.kind}:${account.id}`).digest("hex").slice(0, 24);
}

/** The hub's own generated avatar (no external service). */
export function avatarPath(name: string): string {
  return `/api/avatars/${encodeURIComponent(name)}`;
}

export function orgView(org: Org, role?: Membership["role"]) {
  return {
    type: "org" as const,
    id: accountObjectId(org),
    name: org.name,
    fullname: org.fullname,
    email: null,
    canPay: false,
    periodEnd: null,
    avatarUrl: avatarPath(org.name),
    isEnterprise: false,
    ...(role ? { roleInOrg: role } : {}),
  };
}

/** What `auth.accessToken` says about a token in whoami: never the token, never its hash. */
export function accessTokenView(token: AccessToken) {
  return {
    displayName: token.name,
    role: token.role,
    createdAt: token.createdAt,
    ...(token.expiresAt ? { expiresAt: token.expiresAt } : {}),
    ...(token.fineGrained
      ? {
          fineGrained: {
            canReadGatedRepos: token.fineGrained.canReadGatedRepos,
            global: token.fineGrained.global,
            scoped: token.fineGrained.scoped.map((scope) => ({
              entity: { type: scope.entity.type, name: scope.entity.name },
              permissions: scope.permissions,
            })),
          },
        }
      : {}),
  };
}

/** `GET /api/whoami-v2` for a user, in the public hub's shape. */
export function whoamiView(user: User, memberships: Membership[], token: AccessToken | undefined) {
  return {
    type: "user" as const,
    id: accountObjectId(user),
    name: user.name,
    fullname: user.fullname,
    email: user.email,
    emailVerified: false,
    canPay: false,
    isPro: false,
    periodEnd: null,
    billingMode: "prepaid" as const,
    avatarUrl: avatarPath(user.name),
    orgs: memberships.map((m) => orgView(m.org, m.role)),
    auth: token
      ? { type: "access_token" as const, accessToken: accessTokenView(token) }
      : { type: "session" as const },
  };
}
