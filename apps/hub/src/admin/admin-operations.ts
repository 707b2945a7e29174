import { catalogueService } from "../catalogue/catalogue-service.js";
import type { Store } from "../store/store.js";

/**
 * The admin tasks on the catalogue, shared by the admin API and the admin CLI so both validate exactly
 * alike: the catalogue service's writes, with the providers this hub knows. Each one validates everything
 * before it writes anything.
 */
export function adminOperations(
  store: Pick<Store, "models" | "mappings" | "demoCopies" | "transaction">,
  knownProviders: readonly string[] | undefined,
) {
  const { putModel, deleteModel, setMapping, deleteMapping } = catalogueService(store, { knownProviders });
  return { putModel, deleteModel, setMapping, deleteMapping };
}

export type AdminOperations = ReturnType<typeof adminOperations>;
