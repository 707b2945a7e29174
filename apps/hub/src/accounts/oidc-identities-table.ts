import type { Queryable } from "../store/database.js";

/**
 * Which account each single sign-on identity (the provider's issuer and its `sub` for the person) signs in
 * to. In SQL that runs on SQLite and PostgreSQL alike.
 */
export function createOidcIdentitiesTable(q: Queryable, now: () => Date) {
  return {
    async userIdOf(issuer: string, subject: string): Promise<number | undefined> {
      const row = await q.get<{ user_id: number }>(
        "SELECT user_id FROM oidc_identities WHERE issuer = ? AND subject = ?",
        [issuer, subject],
      );
      return row === undefined ? undefined : Number(row.user_id);
    },
    async link(issuer: string, subject: string, userId: number): Promise<void> {
      await q.run(
        "INSERT INTO oidc_identities (issuer, subject, user_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (issuer, subject) DO NOTHING",
        [issuer, subject, userId, now().toISOString()],
      );
    },
  };
}

export type OidcIdentitiesTable = ReturnType<typeof createOidcIdentitiesTable>;
