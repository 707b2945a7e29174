import type { Store } from "../store/store.js";
import { type FileRecord, REPO_TYPES, type RepoRecord } from "./repo-records.js";

/** One revision a ref points to, with its files: what a walk over every repository hands out. */
export interface RefFiles {
  repo: RepoRecord;
  /** The refs pointing at this commit ("refs/heads/main", "refs/tags/v1", "refs/pr/3"). */
  refs: string[];
  commitOid: string;
  files: FileRecord[];
}

/**
 * Every repository's ref heads (branches, tags, pull requests), one revision at a time: the files a hub holds
 * today, for start-up work over all of them (the scanner's backfill). Only one revision's file list is in
 * memory at once (the repository keys are read per type, ids only); refs pointing at the same commit are
 * handed out once. A repository deleted while walking is skipped.
 */
export async function* refFiles(store: Pick<Store, "repos">): AsyncGenerator<RefFiles> {
  for (const type of REPO_TYPES) {
    for (const key of await store.repos.keysOfType(type)) {
      const repo = await store.repos.byKey(key);
      if (!repo) continue;
      const byCommit = new Map<string, string[]>();
      for (const ref of await store.repos.refs(key)) {
        byCommit.set(ref.commitOid, [...(byCommit.get(ref.commitOid) ?? []), ref.name]);
      }
      for (const [commitOid, refs] of byCommit) {
        yield { repo, refs, commitOid, files: await store.repos.files(key, commitOid) };
      }
    }
  }
}
