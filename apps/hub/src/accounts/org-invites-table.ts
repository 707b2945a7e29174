import type { Queryable } from "../store/database.js";
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
const INVITE_COLUMNS = "org_id, role, created_by, created_at, expires_at, used_at";

export function createOrgInvitesTable(q: Queryable, now: () => Date) {
  const byHash = async (codeHash: string) =>
    q.get<OrgInviteRow>(`SELECT ${INVITE_COLUMNS} FROM org_invites WHERE code_hash = ?`, [codeHash]);
  return {
    async create(input: {
      codeHash: string;
      orgId: number;
      role: OrgRole;
      createdBy: number | null;
      expiresAt: string;
    }): Promise<OrgInvite> {
      const createdAt = now().toISOString();
      await q.run(
        "INSERT INTO org_invites (code_hash, org_id, role, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        [input.codeHash, input.orgId, input.role, input.createdBy, createdAt, input.expiresAt],
      );
      return toInvite((await byHash(input.codeHash))!);
    },
    async get(codeHash: string): Promise<OrgInvite | undefined> {
      const row = await byHash(codeHash);
      return row && toInvite(row);
    },
    /** Marks the invite used by `userId`; undefined when it does not exist, was used or expired. */
    async consume(codeHash: string, userId: number): Promise<OrgInvite | undefined> {
      const at = now().toISOString();
      // One statement marks it used only if it still can be: two people racing for one link, one wins.
      const row = await q.get<OrgInviteRow>(
        `UPDATE org_invites SET used_at = ?, used_by = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?
         RETURNING ${INVITE_COLUMNS}`,
        [at, userId, codeHash, at],
      );
      return row && toInvite(row);
    },
    /** Invites of an organization that can still be used. */
    async pending(orgId: number): Promise<OrgInvite[]> {
      const rows = await q.all<OrgInviteRow>(
        `SELECT ${INVITE_COLUMNS} FROM org_invites WHERE org_id = ? AND used_at IS NULL AND expires_at > ?
         ORDER BY created_at`,
        [orgId, now().toISOString()],
      );
      return rows.map(toInvite);
    },
  };
}

export type OrgInvitesTable = ReturnType<typeof createOrgInvitesTable>;
