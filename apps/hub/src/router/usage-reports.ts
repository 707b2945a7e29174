import type { Queryable } from "../store/database.js";
import type { UsageTotals } from "./usage-table.js";

/** Router calls of one user or organization, per provider and model, since a date. */
export interface AccountUsage extends UsageTotals {
  provider: string;
  model: string | null;
}

/** Router calls per user or per organization billed, since a date (for the admin's overview). */
export interface UsageByAccount extends UsageTotals {
  accountId: number;
}

const TOTALS = `count(*) AS requests,
  sum(CASE WHEN status >= 400 OR status = 0 THEN 1 ELSE 0 END) AS errors,
  sum(request_bytes) AS "requestBytes", sum(response_bytes) AS "responseBytes", sum(duration_ms) AS "totalMs"`;

/**
 * Usage read per user and per organization, from the per-call rows (kept for the retention period; the
 * daily totals are per token). `flush` writes the router's queued records first, so a report includes the
 * calls just made.
 */
export function createUsageReports(q: Queryable, flush: () => Promise<void>) {
  const perModel = (column: "user_id" | "bill_to_id") =>
    `SELECT provider, model, ${TOTALS} FROM usage WHERE ${column} = ? AND created_at >= ?
     GROUP BY provider, model ORDER BY provider, model`;
  const perAccount = (column: "user_id" | "bill_to_id") =>
    `SELECT ${column} AS "accountId", ${TOTALS} FROM usage WHERE ${column} IS NOT NULL AND created_at >= ?
     GROUP BY ${column} ORDER BY ${column}`;

  return {
    /** Calls the user made (whoever paid), per provider and model. */
    async ofUser(userId: number, since: string): Promise<AccountUsage[]> {
      await flush();
      return q.all<AccountUsage>(perModel("user_id"), [userId, since]);
    },
    /** Calls billed to the organization, per provider and model. */
    async ofOrg(orgId: number, since: string): Promise<AccountUsage[]> {
      await flush();
      return q.all<AccountUsage>(perModel("bill_to_id"), [orgId, since]);
    },
    /** Totals per user (`by: "user"`) or per organization billed (`by: "org"`). */
    async byAccount(by: "user" | "org", since: string): Promise<UsageByAccount[]> {
      await flush();
      return q.all<UsageByAccount>(perAccount(by === "user" ? "user_id" : "bill_to_id"), [since]);
    },
  };
}

export type UsageReports = ReturnType<typeof createUsageReports>;
