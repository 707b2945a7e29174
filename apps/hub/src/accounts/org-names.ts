import type { AccountsStore } from "./accounts-store.js";

/**
 * The names of organizations by id, for another domain that keeps an organization's id and shows its name
 * (the router names an organization's provider `org/name`). One read of the organizations per call.
 */
export function orgNamesOf(accounts: Pick<AccountsStore, "orgs">) {
  return async (ids: readonly number[]): Promise<ReadonlyMap<number, string>> => {
    const wanted = new Set(ids);
    const names = new Map<number, string>();
    for (const org of await accounts.orgs.list()) if (wanted.has(org.id)) names.set(org.id, org.name);
    return names;
  };
}
