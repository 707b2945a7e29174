import type {
  AccessRequest,
  AccessRequestStatus,
  AccessToken,
  FineGrained,
  Invite,
  Member,
  Membership,
  Namespace,
  Org,
  OrgRole,
  RepoType,
  Session,
  TokenRole,
  User,
} from "./types.js";

/**
 * Everything the hub keeps about identity, behind one asynchronous interface (sql-accounts-store.ts, on
 * SQLite or PostgreSQL). Secrets never pass through here in the clear: tokens and session ids arrive
 * hashed, passwords as scrypt hashes.
 */
export interface AccountsStore {
  users: {
    create(input: {
      name: string;
      fullname: string;
      email: string | null;
      passwordHash: string | null;
      isAdmin: boolean;
      /** Consumed in the same transaction; the user is not created if the invite is not usable. */
      inviteCodeHash?: string;
    }): Promise<User>;
    byId(id: number): Promise<User | undefined>;
    byName(name: string): Promise<User | undefined>;
    byEmail(email: string): Promise<User | undefined>;
    list(): Promise<User[]>;
    count(): Promise<number>;
    /** The scrypt hash, or null for a user without a password (machine users). */
    passwordHash(id: number): Promise<string | null>;
    update(id: number, changes: { fullname?: string; email?: string | null }): Promise<User>;
    setPassword(id: number, passwordHash: string): Promise<void>;
    setAdmin(id: number, isAdmin: boolean): Promise<void>;
    setDisabled(id: number, disabled: boolean): Promise<void>;
  };
  orgs: {
    /** Creates the organization with `ownerId` as its first admin, atomically. */
    create(input: { name: string; fullname: string; ownerId: number }): Promise<Org>;
    byName(name: string): Promise<Org | undefined>;
    list(): Promise<Org[]>;
    members(orgId: number): Promise<Member[]>;
    /** Adds the member or changes their role. */
    setMember(orgId: number, userId: number, role: OrgRole): Promise<void>;
    /** False when the user was not a member. */
    removeMember(orgId: number, userId: number): Promise<boolean>;
    membershipsOf(userId: number): Promise<Membership[]>;
  };
  /** A user or organization by name: who owns `name/...`. */
  namespace(name: string): Promise<Namespace | undefined>;
  tokens: {
    create(input: {
      userId: number;
      name: string;
      hash: string;
      hint: string;
      role: TokenRole;
      fineGrained: FineGrained | null;
      expiresAt: string | null;
    }): Promise<AccessToken>;
    /** The token with this SHA-256, whether revoked, expired or not (the caller decides). */
    byHash(hash: string): Promise<AccessToken | undefined>;
    byId(id: number): Promise<AccessToken | undefined>;
    list(userId?: number): Promise<AccessToken[]>;
    /** False when the token does not exist or was already revoked. */
    revoke(id: number): Promise<boolean>;
    markUsed(id: number): Promise<void>;
  };
  sessions: {
    create(input: { idHash: string; userId: number; csrfToken: string; expiresAt: string }): Promise<Session>;
    byIdHash(idHash: string): Promise<Session | undefined>;
    touch(idHash: string): Promise<void>;
    revoke(idHash: string): Promise<boolean>;
    /** Signs a user out everywhere (password change, disabling). Returns how many were open. */
    revokeAllOf(userId: number): Promise<number>;
  };
  accessRequests: {
    /** Creates or re-opens the user's request (a rejected one stays rejected). */
    request(input: {
      repoType: RepoType;
      repoId: string;
      userId: number;
      status: AccessRequestStatus;
      fields: Record<string, string>;
    }): Promise<AccessRequest>;
    get(repoType: RepoType, repoId: string, userId: number): Promise<AccessRequest | undefined>;
    list(repoType: RepoType, repoId: string, status?: AccessRequestStatus): Promise<AccessRequest[]>;
    decide(input: {
      repoType: RepoType;
      repoId: string;
      userId: number;
      status: AccessRequestStatus;
      /** The user who decided; null for the operator (ADMIN_TOKEN). */
      decidedBy: number | null;
    }): Promise<AccessRequest | undefined>;
  };
  invites: {
    create(input: { codeHash: string; createdBy: number | null; expiresAt: string }): Promise<Invite>;
    get(codeHash: string): Promise<Invite | undefined>;
  };
  /** Failed sign-ins counted per key and fixed window, in the database so every replica sees them. */
  signInFailures: {
    count(key: string, windowStart: number): Promise<number>;
    add(key: string, windowStart: number): Promise<number>;
    clear(key: string): Promise<void>;
  };
}
