import type { Store } from "../store/store.js";
import {
  idQuery,
  queryPhrases,
  queryTerms,
  type RankedHit,
  rankCandidates,
  type SearchType,
  snippet,
} from "./search-text.js";

export type { RankedHit, SearchType } from "./search-text.js";
export { snippet } from "./search-text.js";

/** Serializes the rebuilding of queued documents across processes and replicas. */
const REFRESH_LOCK = "modelhub:search-refresh";

/**
 * Search over repositories (docs/decisions/search.md): candidates from the database's full-text and trigram
 * indexes, ranked the same way on SQLite and PostgreSQL. What it returns is a ranked list of ids, never
 * rows: callers list them through the listings, which keep only what the caller may see.
 */
export function createSearchService(store: Pick<Store, "search" | "writeTransaction">) {
  /** Rebuilds every queued document (each batch its own transaction); returns how many. */
  async function refresh(): Promise<number> {
    let total = 0;
    for (;;) {
      const done = await store.writeTransaction(async (tx) => {
        await tx.lock(REFRESH_LOCK);
        return tx.search.refreshBatch();
      });
      total += done;
      if (done === 0) return total;
    }
  }

  return {
    refresh,

    /** At start: queues what the index lacks (existing repositories, a copied database) and builds it. */
    async backfill(): Promise<number> {
      await store.writeTransaction((tx) => tx.search.queueUnindexed());
      return refresh();
    },

    /**
     * The repositories of `types` that match `query`, best first (at most a few hundred): by id (exact,
     * contained, or alike despite typos) and by the words of their id, owner, tags, README headings and
     * body. Documents queued by recent writes are rebuilt first, so a search sees every committed change.
     */
    async rank(query: string, types: readonly SearchType[]): Promise<RankedHit[]> {
      if (!query.trim()) return [];
      if (await store.search.hasPending()) await refresh();
      const text = await store.search.textCandidates(queryPhrases(query), types);
      // Typos are looked for in what is typed as an id (one word); several words are matched as text,
      // and as an id only exactly (`bert base` -> `bert-base`): their pieces would be in most ids.
      const ids = await store.search.idCandidates(idQuery(query), types, { typos: !/\s/.test(query.trim()) });
      return rankCandidates(query, [...text, ...ids]);
    },

    /** Users or organizations by name or full name (quicksearch). */
    accounts(text: string, kind: "user" | "org", limit: number) {
      return store.search.accounts(text.trim(), kind, limit);
    },

    /** README bodies of repositories the caller was already shown (for the full-text page's passages). */
    cardTexts(repos: readonly { type: SearchType; id: string }[]) {
      return store.search.cardTexts(repos);
    },

    terms: queryTerms,
    snippet,
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
