import type Database from "better-sqlite3";

/** Router calls of one user or organization, per provider and model, since a date. */
export interface AccountUsage {
  provider: string;
  model: string | null;
  requests: number;
  errors: number;
  requestBytes: number;
  responseBytes: number;
  totalMs: number;
}

/** Router calls per user or per organization billed, since a date (for the admin's overview). */
export interface UsageByAccount {
  accountId: number;
  requests: number;
  errors: number;
  requestBytes: number;
  responseBytes: number;
  totalMs: number;
}

const TOTALS = `count(*) AS requests,
  sum(CASE WHEN status >= 400 OR status = 0 THEN 1 ELSE 0 END) AS errors,
  sum(request_bytes) AS requestBytes, sum(response_bytes) AS responseBytes, sum(duration_ms) AS totalMs`;

/**
 * Usage read per user and per organization, from the per-call rows (kept for the retention period; the
 * daily totals are per token). Asynchronous, in SQL that runs on SQLite and PostgreSQL alike.
 * `flush` writes the router's queued records first, so a report includes the calls just made.
 */
export function createUsageReports(db: Database.Database, flush: () => void) {
  const perModel = (column: "user_id" | "bill_to_id") =>
    db.prepare<[number, string], AccountUsage>(
      `SELECT provider, model, ${TOTALS} FROM usage WHERE ${column} = ? AND created_at >= ?
       GROUP BY provider, model ORDER BY provider, model`,
    );
  const perAccount = (column: "user_id" | "bill_to_id") =>
    db.prepare<[string], UsageByAccount>(
      `SELECT ${column} AS accountId, ${TOTALS} FROM usage WHERE ${column} IS NOT NULL AND created_at >= ?
       GROUP BY ${column} ORDER BY ${column}`,
    );
  const ofUser = perModel("user_id");
  const ofOrg = perModel("bill_to_id");
  const users = perAccount("user_id");
  const orgs = perAccount("bill_to_id");

  return {
    /** Calls the user made (whoever paid), per provider and model. */
    async ofUser(userId: number, since: string): Promise<AccountUsage[]> {
      flush();
      return ofUser.all(userId, since);
    },
    /** Calls billed to the organization, per provider and model. */
    async ofOrg(orgId: number, since: string): Promise<AccountUsage[]> {
      flush();
      return ofOrg.all(orgId, since);
    },
    /** Totals per user (`by: "user"`) or per organization billed (`by: "org"`). */
    async byAccount(by: "user" | "org", since: string): Promise<UsageByAccount[]> {
      flush();
      return (by === "user" ? users : orgs).all(since);
    },
  };
}

export type UsageReports = ReturnType<typeof createUsageReports>;
