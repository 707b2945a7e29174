import { randomBytes } from "node:crypto";
import { hashToken } from "../auth/hub-tokens.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { AccountsStore } from "./accounts-store.js";
import type { OrgInvitesTable } from "./org-invites-table.js";
import type { Org, OrgRole, User } from "./types.js";

/** Days an invite link works when its maker does not say. */
export const DEFAULT_INVITE_DAYS = 7;
const MAX_INVITE_DAYS = 90;

export class InviteNotUsableError extends NotFoundError {
  constructor() {
    super("This invite link is invalid, used or expired: ask for a new one.");
  }
}

/** A new invite code: 24 random bytes; only its SHA-256 is stored. */
export function newInviteCode(): string {
  return randomBytes(24).toString("base64url");
}

/** `expiresInDays` (1..90, default 7) as an ISO date. */
export function inviteExpiry(raw: unknown, now: Date = new Date()): string {
  const days = raw === undefined || raw === null ? DEFAULT_INVITE_DAYS : raw;
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1 || days > MAX_INVITE_DAYS) {
    throw new InvalidInputError(
      `"expiresInDays" must be a whole number of days from 1 to ${MAX_INVITE_DAYS}.`,
    );
  }
  return new Date(now.getTime() + days * 86_400_000).toISOString();
}

/** The path of the sign-up page for an invite code (the link an admin hands out). */
export function signupInvitePath(code: string): string {
  return `/join?invite=${encodeURIComponent(code)}`;
}

/**
 * A sign-up invite (SIGNUP_POLICY=invite): one account may be created with it, before it expires. Made by
 * a site admin (admin API) or the operator (CLI).
 */
export async function createSignupInvite(
  accounts: AccountsStore,
  createdBy: number | null,
  expiresInDays?: unknown,
): Promise<{ code: string; path: string; expiresAt: string }> {
  const code = newInviteCode();
  const invite = await accounts.invites.create({
    codeHash: hashToken(code),
    createdBy,
    expiresAt: inviteExpiry(expiresInDays),
  });
  return { code, path: signupInvitePath(code), expiresAt: invite.expiresAt };
}

const RANK: Record<OrgRole, number> = { read: 1, write: 2, admin: 3 };

/**
 * Organization invitations: an org admin makes a single-use link with a role; the signed-in user who opens
 * it joins with that role (a member already holding a higher role keeps it). Who may make one is decided by
 * the route (authorize "manage" on the org).
 */
export function orgInvitesService(accounts: AccountsStore, invites: OrgInvitesTable) {
  return {
    async create(org: Org, role: OrgRole, createdBy: number | null, expiresInDays?: unknown) {
      const code = newInviteCode();
      const invite = await invites.create({
        codeHash: hashToken(code),
        orgId: org.id,
        role,
        createdBy,
        expiresAt: inviteExpiry(expiresInDays),
      });
      return { code, org: org.name, role, expiresAt: invite.expiresAt };
    },

    /** What an invite offers, for the page that asks the user to accept it. */
    async describe(code: string): Promise<{ org: Org; role: OrgRole; expiresAt: string }> {
      const invite = await invites.get(hashToken(code));
      if (!invite || invite.usedAt !== null || Date.parse(invite.expiresAt) <= Date.now())
        throw new InviteNotUsableError();
      const org = await orgById(invite.orgId);
      return { org, role: invite.role, expiresAt: invite.expiresAt };
    },

    async accept(code: string, user: User): Promise<{ org: Org; role: OrgRole }> {
      const invite = await invites.consume(hashToken(code), user.id);
      if (!invite) throw new InviteNotUsableError();
      const org = await orgById(invite.orgId);
      const current = (await accounts.orgs.members(org.id)).find((m) => m.user.id === user.id)?.role;
      const role = current && RANK[current] >= RANK[invite.role] ? current : invite.role;
      await accounts.orgs.setMember(org.id, user.id, role);
      return { org, role };
    },
  };

  async function orgById(id: number): Promise<Org> {
    const org = (await accounts.orgs.list()).find((o) => o.id === id);
    if (!org) throw new InviteNotUsableError();
    return org;
  }
}

export type OrgInvitesService = ReturnType<typeof orgInvitesService>;
