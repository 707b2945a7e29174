import type Database from "better-sqlite3";
import type { OrgRole } from "./types.js";

export interface OrgInvite {
  orgId: number;
  role: OrgRole;
  createdBy: number | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

interface OrgInviteRow {
  org_id: number;
  role: OrgRole;
  created_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

const toInvite = (row: OrgInviteRow): OrgInvite => ({
  orgId: row.org_id,
  role: row.role,
  createdBy: row.created_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
});

/**
 * Organization invitations, stored by the SHA-256 of their code (the code itself exists only in the link).
 * Asynchronous and in SQL that runs on SQLite and PostgreSQL alike (see accounts-store.ts).
 */
export function createOrgInvitesTable(db: Database.Database, now: () => Date) {
  const insert = db.prepare<[string, number, string, number | null, string, string]>(
    "INSERT INTO org_invites (code_hash, org_id, role, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const byHash = db.prepare<[string], OrgInviteRow>(
    "SELECT org_id, role, created_by, created_at, expires_at, used_at FROM org_invites WHERE code_hash = ?",
  );
  // One statement marks it used only if it still can be: two people racing for one link, one wins.
  const consume = db.prepare<[string, number, string, string], OrgInviteRow>(
    `UPDATE org_invites SET used_at = ?, used_by = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?
     RETURNING org_id, role, created_by, created_at, expires_at, used_at`,
  );
  const pendingOf = db.prepare<[number, string], OrgInviteRow>(
    `SELECT org_id, role, created_by, created_at, expires_at, used_at FROM org_invites
     WHERE org_id = ? AND used_at IS NULL AND expires_at > ? ORDER BY created_at`,
  );

  return {
    async create(input: {
      codeHash: string;
      orgId: number;
      role: OrgRole;
      createdBy: number | null;
      expiresAt: string;
    }): Promise<OrgInvite> {
      const createdAt = now().toISOString();
      insert.run(input.codeHash, input.orgId, input.role, input.createdBy, createdAt, input.expiresAt);
      return toInvite(byHash.get(input.codeHash)!);
    },
    async get(codeHash: string): Promise<OrgInvite | undefined> {
      const row = byHash.get(codeHash);
      return row && toInvite(row);
    },
    /** Marks the invite used by `userId`; undefined when it does not exist, was used or expired. */
    async consume(codeHash: string, userId: number): Promise<OrgInvite | undefined> {
      const at = now().toISOString();
      const row = consume.get(at, userId, codeHash, at);
      return row && toInvite(row);
    },
    /** Invites of an organization that can still be used. */
    async pending(orgId: number): Promise<OrgInvite[]> {
      return pendingOf.all(orgId, now().toISOString()).map(toInvite);
    },
  };
}

export type OrgInvitesTable = ReturnType<typeof createOrgInvitesTable>;
