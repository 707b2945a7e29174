import type { AuditRecorder } from "../audit/audit-log.js";
import { catalogueService } from "../catalogue/catalogue-service.js";
import type { Store } from "../store/store.js";

/**
 * The admin tasks on the catalogue, shared by the admin API and the admin CLI so both validate exactly
 * alike: the catalogue service's writes, with the providers this hub knows. Each one validates everything
 * before it writes anything, and leaves an audit entry in the write's transaction (as the caller's, or
 * the operator's from the CLI).
 */
export function adminOperations(
  store: Pick<Store, "models" | "mappings" | "demoCopies" | "transaction">,
  knownProviders: readonly string[] | undefined,
  audit: AuditRecorder,
) {
  const catalogue = catalogueService(store, { knownProviders, audit });
  const { putModel, deleteModel, setMapping, deleteMapping, importFile } = catalogue;
  return { putModel, deleteModel, setMapping, deleteMapping, importFile };
}

export type AdminOperations = ReturnType<typeof adminOperations>;
