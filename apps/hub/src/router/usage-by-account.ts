import type { Store } from "../store/store.js";

/** Usage totals per user or per organization billed, with the account's name (admin API and CLI). */
export async function usageByAccount(store: Store, by: "user" | "org", since: string) {
  const rows = await store.usageReports.byAccount(by, since);
  const names = new Map<number, string>();
  for (const account of by === "user" ? await store.accounts.users.list() : await store.accounts.orgs.list())
    names.set(account.id, account.name);
  return {
    by,
    since,
    usage: rows.map(({ accountId, ...totals }) => ({ [by]: names.get(accountId) ?? null, ...totals })),
  };
}
