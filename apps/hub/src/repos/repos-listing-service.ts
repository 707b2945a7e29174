import type { Store } from "../store/store.js";
import type { RepoListQuery, RepoListRow } from "./repos-listing.js";

export {
  REPO_LIST_SORTS,
  type RepoListOrder,
  type RepoListRow,
  type RepoListSort,
} from "./repos-listing.js";

/** The dataset and space listings (`GET /api/datasets`, `/api/spaces`): one page, and the total. */
export function createReposListingService(store: Store) {
  return {
    list(query: RepoListQuery): Promise<{ rows: RepoListRow[]; hasMore: boolean }> {
      return store.reposListing.list(query);
    },
    count(query: Omit<RepoListQuery, "sort" | "direction" | "limit" | "after">): Promise<number> {
      return store.reposListing.count(query);
    },
  };
}

export type ReposListingService = ReturnType<typeof createReposListingService>;
