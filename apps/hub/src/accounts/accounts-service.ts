import type { AuditEntryInput } from "../audit/audit-log.js";
import { PermissionDeniedError } from "../auth/auth-errors.js";
import { hashToken } from "../auth/hub-tokens.js";
import { type IssuedToken, issueUserToken, parseTokenRequest } from "../auth/token-service.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { AccountsStore } from "./accounts-store.js";
import { createSignupInvite } from "./invites.js";
import { parseAccountName, parseEmail, parseFullname } from "./names.js";
import { checkPasswordStrength, hashPassword, verifyPassword } from "./password.js";
import {
  type AccessToken,
  type Member,
  type Membership,
  ORG_ROLES,
  type Org,
  type OrgRole,
  type User,
} from "./types.js";

/** The machine user that owns tokens made before accounts, and admin-API tokens made without a user. */
export const LEGACY_TOKENS_USER = "legacy-tokens";

export function parseOrgRole(raw: unknown): OrgRole {
  if (!ORG_ROLES.includes(raw as OrgRole))
    throw new InvalidInputError(`A role is one of: ${ORG_ROLES.join(", ")}.`);
  return raw as OrgRole;
}

/**
 * Account operations with their validation, shared by the admin CLI, the admin API and the settings API so
 * that every path checks alike. Each validates everything before it writes anything. Who may call them is
 * decided by the caller's route with authorize(); these only check that the request makes sense.
 */
/**
 * Runs account writes in one transaction together with the audit entries they leave (app.ts binds it to the
 * store and the audit log). Without it (the admin CLI's own store) the writes run as they are, unaudited.
 */
export interface AuditedAccounts {
  transaction<T>(
    work: (accounts: AccountsStore, record: (entry: AuditEntryInput) => Promise<void>) => Promise<T>,
  ): Promise<T>;
}

export function accountsService(accounts: AccountsStore, audited?: AuditedAccounts) {
  const inAudit: AuditedAccounts["transaction"] = audited
    ? (work) => audited.transaction(work)
    : (work) => work(accounts, async () => {});
  async function user(name: string): Promise<User> {
    const found = await accounts.users.byName(name);
    if (!found) throw new NotFoundError(`No user named ${JSON.stringify(name.slice(0, 60))}.`);
    return found;
  }
  async function org(name: string): Promise<Org> {
    const found = await accounts.orgs.byName(name);
    if (!found) throw new NotFoundError(`No organization named ${JSON.stringify(name.slice(0, 60))}.`);
    return found;
  }

  /** An administrator's (or the operator's) reset of a user's password: told as set, never the password. */
  async function setPassword(userName: string, password: unknown): Promise<void> {
    const target = await user(userName);
    const hash = await hashPassword(checkPasswordStrength(password));
    await inAudit(async (tx, record) => {
      await tx.users.setPassword(target.id, hash);
      // A new password signs the user out everywhere else.
      await tx.sessions.revokeAllOf(target.id);
      await record(userEntry(target, "user.password", { password: "set" }));
    });
  }

  return {
    user,
    org,

    /** A user's public profile: unknown and disabled users alike are "not found". */
    async publicProfile(name: string): Promise<{ user: User; memberships: Membership[] }> {
      const found = await accounts.users.byName(name);
      if (!found || found.disabled) throw new NotFoundError(`User ${name.slice(0, 100)} not found.`);
      return { user: found, memberships: await accounts.orgs.membershipsOf(found.id) };
    },

    members: (orgId: number): Promise<Member[]> => accounts.orgs.members(orgId),

    listUsers: (): Promise<User[]> => accounts.users.list(),

    /** Every organization with its number of members (the admin API). */
    async listOrgs(): Promise<Array<Org & { members: number }>> {
      const orgs = await accounts.orgs.list();
      return Promise.all(
        orgs.map(async (org) => ({ ...org, members: (await accounts.orgs.members(org.id)).length })),
      );
    },

    /** A user's own change of their full name or email (either may be left out). */
    async updateProfile(current: User, input: { fullname?: unknown; email?: unknown }): Promise<User> {
      const changes: { fullname?: string; email?: string | null } = {};
      if (input.fullname !== undefined) changes.fullname = parseFullname(input.fullname, current.name);
      if (input.email !== undefined) changes.email = parseEmail(input.email);
      return accounts.users.update(current.id, changes);
    },

    /**
     * A user's own change of password: the current one must be given (someone who finds a signed-in browser
     * must not be able to take the account over), except by a user who has none. Signs out everywhere.
     */
    async changePassword(current: User, currentPassword: unknown, newPassword: unknown): Promise<void> {
      const hash = await accounts.users.passwordHash(current.id);
      if (
        hash !== null &&
        (typeof currentPassword !== "string" || !(await verifyPassword(currentPassword, hash)))
      )
        throw new PermissionDeniedError("The current password is not right.");
      await setPassword(current.name, newPassword);
    },

    /** A single-use sign-up link (SIGNUP_POLICY=invite), made by a site admin or the operator. */
    createSignupInvite: (createdBy: number | null, expiresInDays?: unknown) =>
      inAudit(async (tx, record) => {
        const invite = await createSignupInvite(tx, createdBy, expiresInDays);
        // Never the code: whoever holds it may create an account.
        await record({
          action: "invite.create",
          namespace: null,
          targetType: "invite",
          target: null,
          details: { expiresAt: invite.expiresAt },
        });
        return invite;
      }),

    async createUser(input: {
      name: unknown;
      fullname?: unknown;
      email?: unknown;
      password?: unknown;
      isAdmin?: boolean;
      inviteCode?: string;
    }): Promise<User> {
      const name = parseAccountName(input.name, "user name");
      const fullname = parseFullname(input.fullname, name);
      const email = parseEmail(input.email);
      const passwordHash =
        input.password === undefined ? null : await hashPassword(checkPasswordStrength(input.password));
      return accounts.users.create({
        name,
        fullname,
        email,
        passwordHash,
        isAdmin: input.isAdmin ?? false,
        ...(input.inviteCode !== undefined ? { inviteCodeHash: hashToken(input.inviteCode) } : {}),
      });
    },

    setPassword,

    async setDisabled(userName: string, disabled: boolean): Promise<User> {
      const target = await user(userName);
      await inAudit(async (tx, record) => {
        await tx.users.setDisabled(target.id, disabled);
        if (disabled) await tx.sessions.revokeAllOf(target.id);
        await record(userEntry(target, disabled ? "user.disable" : "user.enable"));
      });
      return (await accounts.users.byId(target.id))!;
    },

    async setAdmin(userName: string, isAdmin: boolean): Promise<User> {
      const target = await user(userName);
      await inAudit(async (tx, record) => {
        await tx.users.setAdmin(target.id, isAdmin);
        await record(userEntry(target, "user.admin", { from: target.isAdmin, to: isAdmin }));
      });
      return (await accounts.users.byId(target.id))!;
    },

    async createOrg(input: { name: unknown; fullname?: unknown; owner: string }): Promise<Org> {
      const name = parseAccountName(input.name, "organization name");
      const fullname = parseFullname(input.fullname, name);
      const owner = await user(input.owner);
      return accounts.orgs.create({ name, fullname, ownerId: owner.id });
    },

    async setMember(
      orgName: string,
      userName: string,
      role: unknown,
    ): Promise<{ org: Org; user: User; role: OrgRole }> {
      const parsedRole = parseOrgRole(role);
      const [target, member] = [await org(orgName), await user(userName)];
      if (parsedRole !== "admin") await keepOneAdmin(target, member);
      const previous =
        (await accounts.orgs.members(target.id)).find((m) => m.user.id === member.id)?.role ?? null;
      await inAudit(async (tx, record) => {
        await tx.orgs.setMember(target.id, member.id, parsedRole);
        await record({
          action: "member.role",
          namespace: target.name,
          targetType: "member",
          target: member.name,
          details: { from: previous, to: parsedRole },
        });
      });
      return { org: target, user: member, role: parsedRole };
    },

    async removeMember(orgName: string, userName: string): Promise<void> {
      const [target, member] = [await org(orgName), await user(userName)];
      await keepOneAdmin(target, member);
      await inAudit(async (tx, record) => {
        if (!(await tx.orgs.removeMember(target.id, member.id))) {
          throw new NotFoundError(`${member.name} is not a member of ${target.name}.`);
        }
        await record({
          action: "member.remove",
          namespace: target.name,
          targetType: "member",
          target: member.name,
        });
      });
    },

    /** Issues a token for `userName` (the legacy machine user when omitted, created on first use). */
    async createToken(userName: string | undefined, input: unknown): Promise<IssuedToken> {
      const request = parseTokenRequest(input);
      const owner = userName === undefined ? await legacyUser() : await user(userName);
      return inAudit(async (tx, record) => {
        const issued = await issueUserToken(tx, owner.id, request);
        await record({
          action: "token.create",
          namespace: owner.name,
          targetType: "token",
          target: issued.name,
          details: { id: issued.id, role: issued.role, hint: issued.hint },
        });
        return issued;
      });
    },

    /** The tokens of user `userId` (their settings page). */
    tokensOf: (userId: number): Promise<AccessToken[]> => accounts.tokens.list(userId),

    async listTokens(userName?: string): Promise<AccessToken[]> {
      return accounts.tokens.list(userName === undefined ? undefined : (await user(userName)).id);
    },

    /** Revokes token `id`; with `ownerId`, only one of that user's (anyone else's is "not found"). */
    async revokeToken(id: number, ownerId?: number): Promise<AccessToken> {
      const token = await accounts.tokens.byId(id);
      if (!token || (ownerId !== undefined && token.userId !== ownerId))
        throw new NotFoundError(`Token ${id} not found.`);
      const owner = await accounts.users.byId(token.userId);
      await inAudit(async (tx, record) => {
        await tx.tokens.revoke(id);
        await record({
          action: "token.revoke",
          namespace: owner?.name ?? null,
          targetType: "token",
          target: token.name,
          details: { id, hint: token.hint },
        });
      });
      return (await accounts.tokens.byId(id))!;
    },
  };

  /** A site administration's change to a user account, in the user's namespace (site admins read it). */
  function userEntry(
    target: User,
    action: "user.password" | "user.disable" | "user.enable" | "user.admin",
    details?: Record<string, unknown>,
  ): AuditEntryInput {
    return { action, namespace: target.name, targetType: "user", target: target.name, details };
  }

  /** An organization never loses its last admin (nobody could manage it any more). */
  async function keepOneAdmin(target: Org, member: User): Promise<void> {
    const members = await accounts.orgs.members(target.id);
    const admins = members.filter((m) => m.role === "admin");
    if (admins.length === 1 && admins[0]!.user.id === member.id) {
      throw new InvalidInputError(
        `${member.name} is the last admin of ${target.name}: make someone else admin first.`,
      );
    }
  }

  async function legacyUser(): Promise<User> {
    const existing = await accounts.users.byName(LEGACY_TOKENS_USER);
    if (existing) return existing;
    return accounts.users.create({
      name: LEGACY_TOKENS_USER,
      fullname: "Tokens made before accounts",
      email: null,
      passwordHash: null,
      isAdmin: false,
    });
  }
}

export type AccountsService = ReturnType<typeof accountsService>;
