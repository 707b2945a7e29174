import type { RepoRecord } from "./repo-records.js";

/** What one repository lookup read: the row and the commit of the ref read along (undefined: no such ref). */
export interface RepoLookup {
  repo: RepoRecord;
  refCommitOid: string | undefined;
}

/** Lookups kept at most; past it the cache starts over (a hub serves far fewer repositories at once). */
const MAX_ENTRIES = 10_000;

/**
 * The repository lookups of `HEAD /resolve`, model info and every repository route (`repoAssignment`), kept
 * under the database's change mark (`Database.changeMark`): an entry is answered only while the mark is the
 * one it was read under, so it is exactly what the database holds now (a visibility or gating change, a
 * commit moving the ref, a move or a deletion all change the mark first). Without a mark (PostgreSQL, whose
 * replicas write without telling; an open transaction) nothing is kept. The query it saves was ~7 µs of the
 * ~100 of a `HEAD /resolve` (bench/results/2026-11-30-api-3.md); the mark costs ~1 µs.
 */
export function createRepoLookupCache(changeMark: () => string | undefined) {
  const entries = new Map<string, { mark: string; lookup: RepoLookup | undefined }>();
  const keyOf = (type: string, id: string, ref: string) => `${type}\u0000${id}\u0000${ref}`;
  /** A copy per answer: a caller changing its record must not change the next caller's. */
  const copy = (lookup: RepoLookup | undefined): RepoLookup | undefined =>
    lookup && { repo: { ...lookup.repo }, refCommitOid: lookup.refCommitOid };

  return {
    async lookup(
      type: string,
      id: string,
      ref: string,
      read: () => Promise<RepoLookup | undefined>,
    ): Promise<RepoLookup | undefined> {
      const mark = changeMark();
      if (mark === undefined) return read();
      const key = keyOf(type, id, ref);
      const kept = entries.get(key);
      if (kept?.mark === mark) return copy(kept.lookup);
      const lookup = await read();
      // Kept only if nothing changed while it was read (the read is synchronous on SQLite, so it did not).
      if (changeMark() === mark) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(key, { mark, lookup: copy(lookup) });
      }
      return lookup;
    },
  };
}
