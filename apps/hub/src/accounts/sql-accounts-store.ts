import { ConflictError, InvalidInputError } from "../errors.js";
import { isUniqueViolation, type Queryable } from "../store/database.js";
import type { AccountsStore } from "./accounts-store.js";
import type {
  AccessRequest,
  AccessRequestStatus,
  AccessToken,
  FineGrained,
  Member,
  Org,
  OrgRole,
  RepoType,
  Session,
  TokenRole,
  User,
} from "./types.js";

interface AccountRow {
  id: number;
  kind: "user" | "org";
  name: string;
  fullname: string;
  email: string | null;
  password_hash: string | null;
  is_admin: number;
  disabled_at: string | null;
  created_at: string;
}

interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  token_hint: string;
  role: TokenRole;
  fine_grained: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

interface SessionRow {
  user_id: number;
  csrf_token: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  revoked_at: string | null;
}

interface RequestRow {
  repo_type: RepoType;
  repo_id: string;
  user_id: number;
  name: string;
  fullname: string;
  email: string | null;
  status: AccessRequestStatus;
  fields: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by_name: string | null;
}

function toUser(row: AccountRow): User {
  return {
    id: row.id,
    kind: "user",
    name: row.name,
    fullname: row.fullname,
    email: row.email,
    isAdmin: row.is_admin === 1,
    disabled: row.disabled_at !== null,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
  };
}

function toOrg(row: Pick<AccountRow, "id" | "name" | "fullname" | "created_at">): Org {
  return { id: row.id, kind: "org", name: row.name, fullname: row.fullname, createdAt: row.created_at };
}

function toToken(row: TokenRow): AccessToken {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    hint: row.token_hint,
    role: row.role,
    fineGrained: row.fine_grained === null ? null : (JSON.parse(row.fine_grained) as FineGrained),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

function toSession(row: SessionRow): Session {
  return {
    userId: row.user_id,
    csrfToken: row.csrf_token,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastSeenAt: row.last_seen_at,
    revokedAt: row.revoked_at,
  };
}

function toRequest(row: RequestRow): AccessRequest {
  return {
    repoType: row.repo_type,
    repoId: row.repo_id,
    user: { id: row.user_id, name: row.name, fullname: row.fullname, email: row.email },
    status: row.status,
    fields: row.fields === null ? {} : (JSON.parse(row.fields) as Record<string, string>),
    createdAt: row.created_at,
    decidedAt: row.decided_at,
    decidedBy: row.decided_by_name,
  };
}

const TOKEN_COLUMNS =
  "id, user_id, name, token_hint, role, fine_grained, created_at, expires_at, last_used_at, revoked_at";
const REQUEST_SELECT = `
  SELECT r.repo_type, r.repo_id, r.user_id, u.name, u.fullname, u.email, r.status, r.fields, r.created_at,
    r.decided_at, d.name AS decided_by_name
  FROM access_requests r JOIN accounts u ON u.id = r.user_id LEFT JOIN accounts d ON d.id = r.decided_by`;
const ACCOUNT_BY_ID = "SELECT * FROM accounts WHERE id = ?";
const ACCOUNT_BY_NAME = "SELECT * FROM accounts WHERE name = ?";
const INSERT_ACCOUNT = `INSERT INTO accounts (kind, name, fullname, email, password_hash, is_admin, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`;
const SET_MEMBER = `INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role`;
const TOKEN_BY_ID = `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = ?`;
const SESSION = "SELECT * FROM sessions WHERE id_hash = ?";
const REQUEST = `${REQUEST_SELECT} WHERE r.repo_type = ? AND r.repo_id = ? AND r.user_id = ?`;

/** A taken name (users and organizations share them) or email is a conflict naming which. */
async function unique<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const what = /email/.test((error as Error).message) ? "email address" : "name";
    throw new ConflictError(`This ${what} is already taken.`);
  }
}

/**
 * The accounts store on the hub's database (SQLite or PostgreSQL: see store/database.ts). Every method is
 * one or a few statements; the multi-step ones run in a transaction.
 */
export function createSqlAccountsStore(q: Queryable, now: () => Date): AccountsStore {
  const stamp = () => now().toISOString();
  const account = (id: number) => q.get<AccountRow>(ACCOUNT_BY_ID, [id]);
  const userRow = (row: AccountRow | undefined) => (row?.kind === "user" ? toUser(row) : undefined);
  const requestRow = async (repoType: string, repoId: string, userId: number) => {
    const row = await q.get<RequestRow>(REQUEST, [repoType, repoId, userId]);
    return row ? toRequest(row) : undefined;
  };

  return {
    users: {
      create: (input) =>
        unique(() =>
          q.transaction(async (tx) => {
            const createdAt = stamp();
            const { id } = (await tx.get<{ id: number }>(INSERT_ACCOUNT, [
              "user",
              input.name,
              input.fullname,
              input.email,
              input.passwordHash,
              input.isAdmin ? 1 : 0,
              createdAt,
            ]))!;
            if (
              input.inviteCodeHash !== undefined &&
              (await tx.run(
                "UPDATE invites SET used_at = ?, used_by = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?",
                [createdAt, id, input.inviteCodeHash, createdAt],
              )) === 0
            ) {
              throw new InvalidInputError("This invite link is invalid, used or expired.");
            }
            return toUser((await tx.get<AccountRow>(ACCOUNT_BY_ID, [id]))!);
          }),
        ),
      byId: async (id) => userRow(await account(id)),
      byName: async (name) => userRow(await q.get<AccountRow>(ACCOUNT_BY_NAME, [name])),
      byEmail: async (email) =>
        userRow(await q.get<AccountRow>("SELECT * FROM accounts WHERE kind = 'user' AND email = ?", [email])),
      list: async () =>
        (await q.all<AccountRow>("SELECT * FROM accounts WHERE kind = 'user' ORDER BY name")).map(toUser),
      count: async () =>
        (await q.get<{ n: number }>("SELECT count(*) AS n FROM accounts WHERE kind = 'user'"))!.n,
      passwordHash: async (id) => (await account(id))?.password_hash ?? null,
      update: async (id, changes) => {
        const current = await account(id);
        if (!current) throw new InvalidInputError("No such user.");
        await unique(() =>
          q.run("UPDATE accounts SET fullname = coalesce(?, fullname), email = ? WHERE id = ?", [
            changes.fullname ?? null,
            changes.email === undefined ? current.email : changes.email,
            id,
          ]),
        );
        return toUser((await account(id))!);
      },
      setPassword: async (id, hash) =>
        void (await q.run("UPDATE accounts SET password_hash = ? WHERE id = ?", [hash, id])),
      setAdmin: async (id, isAdmin) =>
        void (await q.run("UPDATE accounts SET is_admin = ? WHERE id = ?", [isAdmin ? 1 : 0, id])),
      setDisabled: async (id, disabled) =>
        void (await q.run("UPDATE accounts SET disabled_at = ? WHERE id = ?", [
          disabled ? stamp() : null,
          id,
        ])),
    },
    orgs: {
      create: (input) =>
        unique(() =>
          q.transaction(async (tx) => {
            const at = stamp();
            const { id } = (await tx.get<{ id: number }>(INSERT_ACCOUNT, [
              "org",
              input.name,
              input.fullname,
              null,
              null,
              0,
              at,
            ]))!;
            await tx.run(SET_MEMBER, [id, input.ownerId, "admin", at]);
            return toOrg((await tx.get<AccountRow>(ACCOUNT_BY_ID, [id]))!);
          }),
        ),
      byName: async (name) => {
        const row = await q.get<AccountRow>(ACCOUNT_BY_NAME, [name]);
        return row?.kind === "org" ? toOrg(row) : undefined;
      },
      list: async () =>
        (await q.all<AccountRow>("SELECT * FROM accounts WHERE kind = 'org' ORDER BY name")).map(toOrg),
      members: async (orgId) =>
        (
          await q.all<AccountRow & { role: OrgRole; since: string }>(
            `SELECT a.*, m.role, m.created_at AS since FROM memberships m JOIN accounts a ON a.id = m.user_id
             WHERE m.org_id = ? ORDER BY a.name`,
            [orgId],
          )
        ).map((row): Member => ({ user: toUser(row), role: row.role, since: row.since })),
      setMember: async (orgId, userId, role) =>
        void (await q.run(SET_MEMBER, [orgId, userId, role, stamp()])),
      removeMember: async (orgId, userId) =>
        (await q.run("DELETE FROM memberships WHERE org_id = ? AND user_id = ?", [orgId, userId])) > 0,
      membershipsOf: async (userId) =>
        (
          await q.all<AccountRow & { role: OrgRole }>(
            `SELECT a.*, m.role FROM memberships m JOIN accounts a ON a.id = m.org_id
             WHERE m.user_id = ? ORDER BY a.name`,
            [userId],
          )
        ).map((row) => ({ org: toOrg(row), role: row.role })),
    },
    namespace: async (name) => {
      const row = await q.get<AccountRow>(ACCOUNT_BY_NAME, [name]);
      if (!row) return undefined;
      return row.kind === "user" ? toUser(row) : toOrg(row);
    },
    tokens: {
      create: async (input) => {
        const row = await q.get<TokenRow>(
          `INSERT INTO tokens (name, token_hash, token_hint, scopes, created_at, user_id, role, fine_grained,
             expires_at)
           VALUES (?, ?, ?, '[]', ?, ?, ?, ?, ?) RETURNING ${TOKEN_COLUMNS}`,
          [
            input.name,
            input.hash,
            input.hint,
            stamp(),
            input.userId,
            input.role,
            input.fineGrained ? JSON.stringify(input.fineGrained) : null,
            input.expiresAt,
          ],
        );
        return toToken(row!);
      },
      byHash: async (hash) => {
        const row = await q.get<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE token_hash = ?`, [hash]);
        return row ? toToken(row) : undefined;
      },
      byId: async (id) => {
        const row = await q.get<TokenRow>(TOKEN_BY_ID, [id]);
        return row ? toToken(row) : undefined;
      },
      list: async (userId) =>
        (
          await q.all<TokenRow>(
            `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE (CAST(? AS INTEGER) IS NULL OR user_id = ?) ORDER BY id`,
            [userId ?? null, userId ?? null],
          )
        ).map(toToken),
      revoke: async (id) =>
        (await q.run("UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [stamp(), id])) >
        0,
      markUsed: async (id) =>
        void (await q.run("UPDATE tokens SET last_used_at = ? WHERE id = ?", [stamp(), id])),
    },
    sessions: {
      create: async (input) => {
        const at = stamp();
        await q.run(
          `INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at, last_seen_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
          [input.idHash, input.userId, input.csrfToken, at, input.expiresAt, at],
        );
        return toSession((await q.get<SessionRow>(SESSION, [input.idHash]))!);
      },
      byIdHash: async (idHash) => {
        const row = await q.get<SessionRow>(SESSION, [idHash]);
        return row ? toSession(row) : undefined;
      },
      touch: async (idHash) =>
        void (await q.run("UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?", [stamp(), idHash])),
      revoke: async (idHash) =>
        (await q.run("UPDATE sessions SET revoked_at = ? WHERE id_hash = ? AND revoked_at IS NULL", [
          stamp(),
          idHash,
        ])) > 0,
      revokeAllOf: (userId) =>
        q.run("UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", [
          stamp(),
          userId,
        ]),
    },
    accessRequests: {
      request: async (input) => {
        await q.run(
          `INSERT INTO access_requests (repo_type, repo_id, user_id, status, fields, created_at)
           VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (repo_type, repo_id, user_id) DO UPDATE SET fields = excluded.fields
           WHERE access_requests.status = 'pending'`,
          [input.repoType, input.repoId, input.userId, input.status, JSON.stringify(input.fields), stamp()],
        );
        return (await requestRow(input.repoType, input.repoId, input.userId))!;
      },
      get: (repoType, repoId, userId) => requestRow(repoType, repoId, userId),
      list: async (repoType, repoId, status) =>
        (
          await q.all<RequestRow>(
            `${REQUEST_SELECT} WHERE r.repo_type = ? AND r.repo_id = ? AND (CAST(? AS TEXT) IS NULL OR r.status = ?)
             ORDER BY r.created_at, u.name`,
            [repoType, repoId, status ?? null, status ?? null],
          )
        ).map(toRequest),
      decide: async (input) => {
        await q.run(
          `UPDATE access_requests SET status = ?, decided_at = ?, decided_by = ?
           WHERE repo_type = ? AND repo_id = ? AND user_id = ?`,
          [input.status, stamp(), input.decidedBy, input.repoType, input.repoId, input.userId],
        );
        return requestRow(input.repoType, input.repoId, input.userId);
      },
    },
    invites: {
      create: async (input) => {
        const at = stamp();
        await q.run(
          "INSERT INTO invites (code_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?)",
          [input.codeHash, input.createdBy, at, input.expiresAt],
        );
        return { createdBy: input.createdBy, createdAt: at, expiresAt: input.expiresAt, usedAt: null };
      },
      get: async (codeHash) => {
        const row = await q.get<{
          created_by: number | null;
          created_at: string;
          expires_at: string;
          used_at: string | null;
        }>("SELECT created_by, created_at, expires_at, used_at FROM invites WHERE code_hash = ?", [codeHash]);
        return row
          ? {
              createdBy: row.created_by,
              createdAt: row.created_at,
              expiresAt: row.expires_at,
              usedAt: row.used_at,
            }
          : undefined;
      },
    },
    signInFailures: {
      count: async (key, windowStart) =>
        (
          await q.get<{ failures: number }>(
            "SELECT failures FROM sign_in_failures WHERE key = ? AND window_start = ?",
            [key, windowStart],
          )
        )?.failures ?? 0,
      add: async (key, windowStart) => {
        // Windows older than a day are of no use to anyone: drop them as new failures come in.
        await q.run("DELETE FROM sign_in_failures WHERE window_start < ?", [windowStart - 86_400_000]);
        const row = await q.get<{ failures: number }>(
          `INSERT INTO sign_in_failures (key, window_start, failures) VALUES (?, ?, 1)
           ON CONFLICT (key, window_start) DO UPDATE SET failures = sign_in_failures.failures + 1
           RETURNING failures`,
          [key, windowStart],
        );
        return row!.failures;
      },
      clear: async (key) => void (await q.run("DELETE FROM sign_in_failures WHERE key = ?", [key])),
    },
  };
}
