import type Database from "better-sqlite3";
import { ConflictError, InvalidInputError } from "../errors.js";
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

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === "SQLITE_CONSTRAINT_UNIQUE";
}

const TOKEN_COLUMNS =
  "id, user_id, name, token_hint, role, fine_grained, created_at, expires_at, last_used_at, revoked_at";
const REQUEST_SELECT = `
  SELECT r.repo_type, r.repo_id, r.user_id, u.name, u.fullname, u.email, r.status, r.fields, r.created_at,
    r.decided_at, d.name AS decided_by_name
  FROM access_requests r JOIN accounts u ON u.id = r.user_id LEFT JOIN accounts d ON d.id = r.decided_by`;

/**
 * The accounts store on the hub's SQLite database. better-sqlite3 is synchronous; each method does its work
 * at once and returns a settled promise, so the interface is the one a networked database needs.
 */
export function createSqliteAccountsStore(db: Database.Database, now: () => Date): AccountsStore {
  const stamp = () => now().toISOString();
  const q = {
    accountById: db.prepare<[number], AccountRow>("SELECT * FROM accounts WHERE id = ?"),
    accountByName: db.prepare<[string], AccountRow>("SELECT * FROM accounts WHERE name = ?"),
    userByEmail: db.prepare<[string], AccountRow>("SELECT * FROM accounts WHERE kind = 'user' AND email = ?"),
    users: db.prepare<[], AccountRow>("SELECT * FROM accounts WHERE kind = 'user' ORDER BY name"),
    orgs: db.prepare<[], AccountRow>("SELECT * FROM accounts WHERE kind = 'org' ORDER BY name"),
    userCount: db.prepare<[], { n: number }>("SELECT count(*) AS n FROM accounts WHERE kind = 'user'"),
    insertAccount: db.prepare(
      `INSERT INTO accounts (kind, name, fullname, email, password_hash, is_admin, created_at)
       VALUES (@kind, @name, @fullname, @email, @password_hash, @is_admin, @created_at)`,
    ),
    updateProfile: db.prepare<[string | null, string | null, number]>(
      "UPDATE accounts SET fullname = coalesce(?, fullname), email = ? WHERE id = ?",
    ),
    setPassword: db.prepare<[string, number]>("UPDATE accounts SET password_hash = ? WHERE id = ?"),
    setAdmin: db.prepare<[number, number]>("UPDATE accounts SET is_admin = ? WHERE id = ?"),
    setDisabled: db.prepare<[string | null, number]>("UPDATE accounts SET disabled_at = ? WHERE id = ?"),
    setMember: db.prepare(
      `INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role`,
    ),
    removeMember: db.prepare<[number, number]>("DELETE FROM memberships WHERE org_id = ? AND user_id = ?"),
    members: db.prepare<[number], AccountRow & { role: OrgRole; since: string }>(
      `SELECT a.*, m.role, m.created_at AS since FROM memberships m JOIN accounts a ON a.id = m.user_id
       WHERE m.org_id = ? ORDER BY a.name`,
    ),
    membershipsOf: db.prepare<[number], AccountRow & { role: OrgRole }>(
      `SELECT a.*, m.role FROM memberships m JOIN accounts a ON a.id = m.org_id
       WHERE m.user_id = ? ORDER BY a.name`,
    ),
    insertToken: db.prepare(
      `INSERT INTO tokens (name, token_hash, token_hint, scopes, created_at, user_id, role, fine_grained, expires_at)
       VALUES (@name, @hash, @hint, '[]', @created_at, @user_id, @role, @fine_grained, @expires_at)`,
    ),
    tokenById: db.prepare<[number], TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE id = ?`),
    tokenByHash: db.prepare<[string], TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM tokens WHERE token_hash = ?`),
    tokens: db.prepare<[number | null, number | null], TokenRow>(
      `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE (? IS NULL OR user_id = ?) ORDER BY id`,
    ),
    revokeToken: db.prepare<[string, number]>(
      "UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
    ),
    touchToken: db.prepare<[string, number]>("UPDATE tokens SET last_used_at = ? WHERE id = ?"),
    insertSession: db.prepare(
      `INSERT INTO sessions (id_hash, user_id, csrf_token, created_at, expires_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    session: db.prepare<[string], SessionRow>("SELECT * FROM sessions WHERE id_hash = ?"),
    touchSession: db.prepare<[string, string]>("UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?"),
    revokeSession: db.prepare<[string, string]>(
      "UPDATE sessions SET revoked_at = ? WHERE id_hash = ? AND revoked_at IS NULL",
    ),
    revokeSessionsOf: db.prepare<[string, number]>(
      "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL",
    ),
    upsertRequest: db.prepare(
      `INSERT INTO access_requests (repo_type, repo_id, user_id, status, fields, created_at)
       VALUES (@repo_type, @repo_id, @user_id, @status, @fields, @created_at)
       ON CONFLICT (repo_type, repo_id, user_id) DO UPDATE SET fields = excluded.fields
       WHERE access_requests.status = 'pending'`,
    ),
    request: db.prepare<[string, string, number], RequestRow>(
      `${REQUEST_SELECT} WHERE r.repo_type = ? AND r.repo_id = ? AND r.user_id = ?`,
    ),
    requests: db.prepare<[string, string, string | null, string | null], RequestRow>(
      `${REQUEST_SELECT} WHERE r.repo_type = ? AND r.repo_id = ? AND (? IS NULL OR r.status = ?)
       ORDER BY r.created_at, u.name`,
    ),
    decideRequest: db.prepare(
      `UPDATE access_requests SET status = @status, decided_at = @decided_at, decided_by = @decided_by
       WHERE repo_type = @repo_type AND repo_id = @repo_id AND user_id = @user_id`,
    ),
    insertInvite: db.prepare(
      "INSERT INTO invites (code_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?)",
    ),
    invite: db.prepare<
      [string],
      { created_by: number | null; created_at: string; expires_at: string; used_at: string | null }
    >("SELECT created_by, created_at, expires_at, used_at FROM invites WHERE code_hash = ?"),
    consumeInvite: db.prepare<[string, number, string, string]>(
      "UPDATE invites SET used_at = ?, used_by = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?",
    ),
    failures: db.prepare<[string, number], { failures: number }>(
      "SELECT failures FROM sign_in_failures WHERE key = ? AND window_start = ?",
    ),
    addFailure: db.prepare<[string, number], { failures: number }>(
      `INSERT INTO sign_in_failures (key, window_start, failures) VALUES (?, ?, 1)
       ON CONFLICT (key, window_start) DO UPDATE SET failures = failures + 1 RETURNING failures`,
    ),
    clearFailures: db.prepare<[string]>("DELETE FROM sign_in_failures WHERE key = ?"),
    dropOldFailures: db.prepare<[number]>("DELETE FROM sign_in_failures WHERE window_start < ?"),
  };

  const userRow = (row: AccountRow | undefined) => (row?.kind === "user" ? toUser(row) : undefined);

  const createUser = db.transaction(
    (input: Parameters<AccountsStore["users"]["create"]>[0], createdAt: string): User => {
      const result = q.insertAccount.run({
        kind: "user",
        name: input.name,
        fullname: input.fullname,
        email: input.email,
        password_hash: input.passwordHash,
        is_admin: input.isAdmin ? 1 : 0,
        created_at: createdAt,
      });
      const id = Number(result.lastInsertRowid);
      if (
        input.inviteCodeHash !== undefined &&
        q.consumeInvite.run(createdAt, id, input.inviteCodeHash, createdAt).changes === 0
      ) {
        throw new InvalidInputError("This invite link is invalid, used or expired.");
      }
      return toUser(q.accountById.get(id)!);
    },
  );

  const createOrg = db.transaction(
    (input: { name: string; fullname: string; ownerId: number }, at: string) => {
      const result = q.insertAccount.run({
        kind: "org",
        name: input.name,
        fullname: input.fullname,
        email: null,
        password_hash: null,
        is_admin: 0,
        created_at: at,
      });
      const id = Number(result.lastInsertRowid);
      q.setMember.run(id, input.ownerId, "admin", at);
      return toOrg(q.accountById.get(id)!);
    },
  );

  /** A taken name (users and organizations share them) or email is a conflict naming which. */
  const unique = <T>(work: () => T): T => {
    try {
      return work();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const what = /email/.test((error as Error).message) ? "email address" : "name";
      throw new ConflictError(`This ${what} is already taken.`);
    }
  };

  return {
    users: {
      create: async (input) => unique(() => createUser(input, stamp())),
      byId: async (id) => userRow(q.accountById.get(id)),
      byName: async (name) => userRow(q.accountByName.get(name)),
      byEmail: async (email) => userRow(q.userByEmail.get(email)),
      list: async () => q.users.all().map(toUser),
      count: async () => q.userCount.get()!.n,
      passwordHash: async (id) => q.accountById.get(id)?.password_hash ?? null,
      update: async (id, changes) => {
        const current = q.accountById.get(id);
        if (!current) throw new InvalidInputError("No such user.");
        unique(() =>
          q.updateProfile.run(
            changes.fullname ?? null,
            changes.email === undefined ? current.email : changes.email,
            id,
          ),
        );
        return toUser(q.accountById.get(id)!);
      },
      setPassword: async (id, hash) => void q.setPassword.run(hash, id),
      setAdmin: async (id, isAdmin) => void q.setAdmin.run(isAdmin ? 1 : 0, id),
      setDisabled: async (id, disabled) => void q.setDisabled.run(disabled ? stamp() : null, id),
    },
    orgs: {
      create: async (input) => unique(() => createOrg(input, stamp())),
      byName: async (name) => {
        const row = q.accountByName.get(name);
        return row?.kind === "org" ? toOrg(row) : undefined;
      },
      list: async () => q.orgs.all().map(toOrg),
      members: async (orgId) =>
        q.members.all(orgId).map((row): Member => ({ user: toUser(row), role: row.role, since: row.since })),
      setMember: async (orgId, userId, role) => void q.setMember.run(orgId, userId, role, stamp()),
      removeMember: async (orgId, userId) => q.removeMember.run(orgId, userId).changes > 0,
      membershipsOf: async (userId) =>
        q.membershipsOf.all(userId).map((row) => ({ org: toOrg(row), role: row.role })),
    },
    namespace: async (name) => {
      const row = q.accountByName.get(name);
      if (!row) return undefined;
      return row.kind === "user" ? toUser(row) : toOrg(row);
    },
    tokens: {
      create: async (input) => {
        const result = q.insertToken.run({
          name: input.name,
          hash: input.hash,
          hint: input.hint,
          created_at: stamp(),
          user_id: input.userId,
          role: input.role,
          fine_grained: input.fineGrained ? JSON.stringify(input.fineGrained) : null,
          expires_at: input.expiresAt,
        });
        return toToken(q.tokenById.get(Number(result.lastInsertRowid))!);
      },
      byHash: async (hash) => {
        const row = q.tokenByHash.get(hash);
        return row ? toToken(row) : undefined;
      },
      byId: async (id) => {
        const row = q.tokenById.get(id);
        return row ? toToken(row) : undefined;
      },
      list: async (userId) => q.tokens.all(userId ?? null, userId ?? null).map(toToken),
      revoke: async (id) => q.revokeToken.run(stamp(), id).changes > 0,
      markUsed: async (id) => void q.touchToken.run(stamp(), id),
    },
    sessions: {
      create: async (input) => {
        const at = stamp();
        q.insertSession.run(input.idHash, input.userId, input.csrfToken, at, input.expiresAt, at);
        return toSession(q.session.get(input.idHash)!);
      },
      byIdHash: async (idHash) => {
        const row = q.session.get(idHash);
        return row ? toSession(row) : undefined;
      },
      touch: async (idHash) => void q.touchSession.run(stamp(), idHash),
      revoke: async (idHash) => q.revokeSession.run(stamp(), idHash).changes > 0,
      revokeAllOf: async (userId) => q.revokeSessionsOf.run(stamp(), userId).changes,
    },
    accessRequests: {
      request: async (input) => {
        q.upsertRequest.run({
          repo_type: input.repoType,
          repo_id: input.repoId,
          user_id: input.userId,
          status: input.status,
          fields: JSON.stringify(input.fields),
          created_at: stamp(),
        });
        return toRequest(q.request.get(input.repoType, input.repoId, input.userId)!);
      },
      get: async (repoType, repoId, userId) => {
        const row = q.request.get(repoType, repoId, userId);
        return row ? toRequest(row) : undefined;
      },
      list: async (repoType, repoId, status) =>
        q.requests.all(repoType, repoId, status ?? null, status ?? null).map(toRequest),
      decide: async (input) => {
        q.decideRequest.run({
          status: input.status,
          decided_at: stamp(),
          decided_by: input.decidedBy,
          repo_type: input.repoType,
          repo_id: input.repoId,
          user_id: input.userId,
        });
        const row = q.request.get(input.repoType, input.repoId, input.userId);
        return row ? toRequest(row) : undefined;
      },
    },
    invites: {
      create: async (input) => {
        const at = stamp();
        q.insertInvite.run(input.codeHash, input.createdBy, at, input.expiresAt);
        return { createdBy: input.createdBy, createdAt: at, expiresAt: input.expiresAt, usedAt: null };
      },
      get: async (codeHash) => {
        const row = q.invite.get(codeHash);
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
      count: async (key, windowStart) => q.failures.get(key, windowStart)?.failures ?? 0,
      add: async (key, windowStart) => {
        // Windows older than a day are of no use to anyone: drop them as new failures come in.
        q.dropOldFailures.run(windowStart - 86_400_000);
        return q.addFailure.get(key, windowStart)!.failures;
      },
      clear: async (key) => void q.clearFailures.run(key),
    },
  };
}
