import { randomBytes } from "node:crypto";
import { hashToken } from "../auth/hub-tokens.js";
import { HubError, InvalidInputError } from "../errors.js";
import type { AuditedAccounts } from "./accounts-service.js";
import type { AccountsStore } from "./accounts-store.js";
import { burnVerification, verifyPassword } from "./password.js";
import type { User } from "./types.js";

/** The one answer to every failed sign-in, whatever failed (no user enumeration). */
export const SIGN_IN_FAILED = "Invalid username or password.";

export class SignInFailedError extends HubError {
  constructor() {
    super(401, "unauthorized", SIGN_IN_FAILED);
  }
}

export class SignInRateLimitedError extends HubError {
  constructor() {
    super(429, "rate_limited", "Too many failed sign-ins for this account: try again in a few minutes.");
  }
}

export interface SignInLimits {
  /** Failed attempts allowed per account name within one window. */
  maxFailures: number;
  windowMs: number;
  sessionMs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  maxFailures: 5,
  windowMs: 15 * 60_000,
  sessionMs: 30 * 24 * 3600_000,
};

/** A new server-side session for a user who proved who they are (password, single sign-on). */
export async function openSession(
  accounts: AccountsStore,
  userId: number,
  sessionMs: number = DEFAULT_SIGN_IN_LIMITS.sessionMs,
  now = Date.now,
): Promise<{ sessionId: string; csrfToken: string; expiresAt: string }> {
  const sessionId = randomBytes(32).toString("base64url");
  const csrfToken = randomBytes(24).toString("base64url");
  const expiresAt = new Date(now() + sessionMs).toISOString();
  await accounts.sessions.create({ idHash: hashToken(sessionId), userId, csrfToken, expiresAt });
  return { sessionId, csrfToken, expiresAt };
}

/**
 * Password sign-in and server-side sessions. Failures are counted per account name (existing or not) in the
 * database, so the limit holds across replicas and cannot tell which names exist; the session id leaves
 * only in the cookie and is stored hashed.
 */
export function signInService(
  accounts: AccountsStore,
  limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  now = Date.now,
  /** Sign-ins and failures go to the audit log with the session or failure count they write (app.ts). */
  audited?: AuditedAccounts,
) {
  const inAudit: AuditedAccounts["transaction"] = audited
    ? (work) => audited.transaction(work)
    : (work) => work(accounts, async () => {});
  const signedIn = (user: User, method: string) =>
    inAudit(async (tx, record) => {
      const session = await openSession(tx, user.id, limits.sessionMs, now);
      await record({
        action: "signin.success",
        namespace: user.name,
        targetType: "user",
        target: user.name,
        actorName: user.name,
        details: { method },
      });
      return session;
    });
  return {
    /** A new session for a user who proved who they are another way (single sign-on). */
    async openSession(userId: number) {
      const user = await accounts.users.byId(userId);
      return user ? signedIn(user, "sso") : openSession(accounts, userId, limits.sessionMs, now);
    },

    /** Ends one session server-side (its cookie is cleared by the route). */
    async signOut(sessionIdHash: string): Promise<void> {
      await accounts.sessions.revoke(sessionIdHash);
    },

    async signIn(input: {
      name: unknown;
      password: unknown;
    }): Promise<{ user: User; sessionId: string; csrfToken: string; expiresAt: string }> {
      if (typeof input.name !== "string" || typeof input.password !== "string" || input.name.length > 254) {
        throw new InvalidInputError('Expected {"name", "password"}.');
      }
      const key = `name:${input.name.toLowerCase()}`;
      const window = Math.floor(now() / limits.windowMs) * limits.windowMs;
      if ((await accounts.signInFailures.count(key, window)) >= limits.maxFailures)
        throw new SignInRateLimitedError();
      const user = input.name.includes("@")
        ? await accounts.users.byEmail(input.name)
        : await accounts.users.byName(input.name);
      const hash = user && !user.disabled ? await accounts.users.passwordHash(user.id) : null;
      // Without a usable hash, spend the same time on a dummy one: the answer's timing names no user.
      let ok = false;
      if (hash) ok = await verifyPassword(input.password, hash);
      else await burnVerification(input.password);
      if (!ok || !user) {
        await inAudit(async (tx, record) => {
          await tx.signInFailures.add(key, window);
          // Under the account tried when it exists (its owner sees attempts on it); the name as typed.
          await record({
            action: "signin.failure",
            namespace: user?.name ?? null,
            targetType: "user",
            target: user?.name ?? null,
            actorName: String(input.name).slice(0, 100),
            details: { reason: user ? "wrong password or disabled account" : "unknown account" },
          });
        });
        throw new SignInFailedError();
      }
      await accounts.signInFailures.clear(key);
      return { user, ...(await signedIn(user, "password")) };
    },
  };
}

export type SignInService = ReturnType<typeof signInService>;
