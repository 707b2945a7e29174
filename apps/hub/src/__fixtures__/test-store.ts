import { openStore, type Store, type StoreOptions } from "../store/store.js";

/**
 * The store a test runs on: SQLite in `dataDir` by default. Every test that needs a store opens it here, so
 * that the whole suite can run on another database by changing this one place.
 */
export function openTestStore(options: StoreOptions): Promise<Store> {
  return openStore(options);
}
