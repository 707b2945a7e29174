import type { Store } from "../store/store.js";
import { plainTextAround } from "./card-plain-text.js";
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

/** A search's ranking (search-service.ts `rank`). */
export interface RankedSearch {
  /** Best first. */
  hits: RankedHit[];
  /**
   * The hits include every repository of the searched types whose id contains the query as typed (any
   * case): a listing's `search=` then takes its "id contains" matches from them instead of looking them up
   * again (search-match-sql.ts).
   */
  everyContaining: boolean;
}
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
      if (done === 0) {
        if (total > 0) await store.search.mergePendingIndexEntries();
        return total;
      }
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
     *
     * `typing`: the query is still being typed (the header's suggestions): its words are looked for in
     * ids, owners, tags and headings only (not README bodies), the last one also as the start of a longer
     * word. Otherwise words match whole (stemmed), bodies included: a listing's `search=` already matches
     * every id containing the text, and a short word's prefix is the start of thousands of words at
     * 100,000 repositories (0.1-0.5 s more to find and rank in the bodies; docs/decisions/search.md).
     */
    async rank(
      query: string,
      types: readonly SearchType[],
      options: { typing?: boolean } = {},
    ): Promise<RankedSearch> {
      if (!query.trim()) return { hits: [], everyContaining: false };
      if (await store.search.hasPending()) await refresh();
      const text = await store.search.textCandidates(queryPhrases(query), types, {
        prefix: options.typing === true,
      });
      // Typos are looked for in what is typed as an id (one word); several words are matched as text,
      // and as an id only exactly (`bert base` -> `bert-base`): their pieces would be in most ids.
      const asId = idQuery(query);
      const ids = await store.search.idCandidates(asId, types, { typos: !/\s/.test(query.trim()) });
      return {
        hits: rankCandidates(query, [...text, ...ids.candidates]),
        // What the listings match as "contains" is the query as given, in any case.
        everyContaining: ids.everyContaining && asId === query.toLowerCase(),
      };
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
    /** A card's passage as a reader sees it (no Markdown syntax), around the first of `terms`. */
    cardPassage(markdown: string, terms: readonly string[]) {
      return snippet(plainTextAround(markdown, terms), terms);
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
