import type { Store } from "../store/store.js";
import { REPO_TYPES, type RepoType } from "./repo-records.js";

export interface NamespaceRepository {
  type: RepoType;
  id: string;
  private: boolean;
  lastModified: string;
  /** Bytes of the distinct contents the repository's commits reference (what usedStorage reports). */
  storage: number;
}

/** Every repository of a namespace, of every type, with the storage each uses (`hf repos ls`). */
export function createNamespaceRepositories(store: Store) {
  return {
    async list(owner: string): Promise<NamespaceRepository[]> {
      const listed: NamespaceRepository[] = [];
      for (const type of REPO_TYPES) {
        for (const repo of await store.repos.listByOwner(type, owner)) {
          listed.push({
            type,
            id: repo.id,
            private: repo.private,
            lastModified: repo.lastModified,
            storage: await store.repos.usedStorage(repo.key),
          });
        }
      }
      return listed;
    },
  };
}

export type NamespaceRepositories = ReturnType<typeof createNamespaceRepositories>;
