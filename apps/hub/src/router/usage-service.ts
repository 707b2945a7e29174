import type { Store } from "../store/store.js";
import { usageByAccount } from "./usage-by-account.js";

/**
 * The router's usage records as the accounts and admin APIs report them: a user's or an organization's
 * calls, totals per account, totals per token. Routes reach usage through this, never the tables.
 */
export function usageService(store: Pick<Store, "usage" | "usageReports" | "accounts">) {
  return {
    ofUser: (userId: number, since: string) => store.usageReports.ofUser(userId, since),
    ofOrg: (orgId: number, since: string) => store.usageReports.ofOrg(orgId, since),
    byAccount: (by: "user" | "org", since: string) => usageByAccount(store as Store, by, since),
    /** Totals per token and model (all tokens, or one). */
    summary: (tokenId?: number) => store.usage.summary(tokenId),
  };
}

export type UsageService = ReturnType<typeof usageService>;
