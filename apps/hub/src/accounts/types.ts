/** The accounts domain: what the accounts store keeps and the auth module reasons about. */

export const ORG_ROLES = ["read", "write", "admin"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

export const REPO_TYPES = ["model", "dataset", "space"] as const;
export type RepoType = (typeof REPO_TYPES)[number];

export interface User {
  id: number;
  kind: "user";
  name: string;
  fullname: string;
  email: string | null;
  /** Site administrator: may read and manage everything. */
  isAdmin: boolean;
  /** A disabled user cannot sign in and none of their tokens or sessions work. */
  disabled: boolean;
  hasPassword: boolean;
  createdAt: string;
}

export interface Org {
  id: number;
  kind: "org";
  name: string;
  fullname: string;
  createdAt: string;
}

export type Namespace = User | Org;

export interface Membership {
  org: Org;
  role: OrgRole;
}

export interface Member {
  user: User;
  role: OrgRole;
  since: string;
}

/**
 * Token roles, as the public hub names them: `read`, `write`, or `fineGrained` (then `fineGrained` says
 * exactly what the token may do).
 */
export const TOKEN_ROLES = ["read", "write", "fineGrained"] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/**
 * Fine-grained permissions, with the public hub's names where it has one. `repo.manage` (settings, delete,
 * access requests) is this hub's own: the public hub folds it into `repo.write`.
 */
export const FINE_GRAINED_PERMISSIONS = [
  "repo.content.read",
  "repo.write",
  "repo.manage",
  "org.read",
  "org.write",
  "inference.serverless.write",
] as const;
export type FineGrainedPermission = (typeof FINE_GRAINED_PERMISSIONS)[number];

export type ScopeEntityType = "user" | "org" | RepoType;

export interface FineGrainedScope {
  /** A namespace (user or org: every repository under it) or one repository (`owner/name`). */
  entity: { type: ScopeEntityType; name: string };
  permissions: FineGrainedPermission[];
}

export interface FineGrained {
  /** Public gated repositories the user was granted may be read with this token. */
  canReadGatedRepos: boolean;
  /** Permissions that are not tied to a repository or namespace (only `inference.serverless.write`). */
  global: FineGrainedPermission[];
  scoped: FineGrainedScope[];
}

/** A user access token as stored: never the token itself, only its hash (elsewhere) and a hint. */
export interface AccessToken {
  id: number;
  userId: number;
  /** The label the user gave it (`displayName` in whoami). */
  name: string;
  /** `hf_…abcd`: enough to recognise a token, useless to use it. */
  hint: string;
  role: TokenRole;
  fineGrained: FineGrained | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Session {
  userId: number;
  /** Sent back by the page on every state-changing request (header `X-CSRF-Token`). */
  csrfToken: string;
  createdAt: string;
  expiresAt: string;
  lastSeenAt: string;
  revokedAt: string | null;
}

export const ACCESS_REQUEST_STATUSES = ["pending", "accepted", "rejected"] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

export interface AccessRequest {
  repoType: RepoType;
  repoId: string;
  user: { id: number; name: string; fullname: string; email: string | null };
  status: AccessRequestStatus;
  /** What the user filled in when asking (free-form answers). */
  fields: Record<string, string>;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
}

export interface Invite {
  createdBy: number | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}
