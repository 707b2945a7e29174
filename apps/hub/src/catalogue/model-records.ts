import type { ModelData } from "@modelhub/tasks";
import type { ListingSort, ModelFilters } from "./model-filters.js";

// The catalogue's record types, apart from the table that stores them: other domains (the router, the
// repositories' seeding) name them without reaching the catalogue's tables (scripts/check-layers.ts).

/** A stored model: the ModelData record plus the fields the hub derives for its API. */
export interface StoredModel extends ModelData {
  /** 24 hex characters, stable per model id: the public API's `_id`. */
  objectId: string;
  author: string;
  downloads: number;
  likes: number;
  trendingScore: number;
  createdAt: string;
  lastModified: string;
}

export interface ModelListQuery extends ModelFilters {
  /** `relevance`: the order of `searchRanked`, then models matched by id substring only, by id. */
  sort: ListingSort;
  /** -1 = descending (default on the public hub), 1 = ascending. */
  direction: 1 | -1;
  limit: number;
  /** Keyset position: the sort value and id of the last model of the previous page. */
  after?: { value: string | number; id: string };
}

/** One page of a listing, and where the next one starts when there is one. */
export interface ModelListPage {
  models: StoredModel[];
  hasMore: boolean;
  /** The sort value and id of the page's last model: the next page's `after`. */
  last?: { value: string | number; id: string };
}
