import type { Store } from "../store/store.js";
import type { CommitRecord, RepoRecord } from "./repos-table.js";

export interface HistoryPage {
  commits: CommitRecord[];
  /** Whether older commits (touching the path, when one is given) follow this page. */
  hasNext: boolean;
}

/**
 * One page of first-parent history, newest first. With a path, only the commits that changed what is at that
 * path (a file's blob or a folder's tree, added, changed or removed), as `git log --first-parent -- path`
 * lists them. Walks from the head: each commit costs one lookup of the path, reused as its child's parent
 * value, so a page deep in a long history of a rarely changed file is a walk through that history.
 */
export async function historyPage(
  store: Store,
  repo: RepoRecord,
  headOid: string,
  options: { page: number; limit: number; path?: string },
): Promise<HistoryPage> {
  const { page, limit, path } = options;
  const skip = page * limit;
  const oidAt = async (commitOid: string): Promise<string | undefined> =>
    path === undefined || path === ""
      ? commitOid
      : ((await store.repos.file(repo.key, commitOid, path))?.blobOid ??
        (await store.repos.tree(repo.key, commitOid, path)));

  const commits: CommitRecord[] = [];
  let matched = 0;
  let current = await store.repos.commit(repo.key, headOid);
  let currentValue = current ? await oidAt(current.oid) : undefined;
  while (current && commits.length <= limit) {
    const parentOid = current.parents[0];
    const parent = parentOid ? await store.repos.commit(repo.key, parentOid) : undefined;
    const parentValue = parent ? await oidAt(parent.oid) : undefined;
    if (currentValue !== parentValue) {
      if (matched >= skip) commits.push(current);
      matched++;
    }
    current = parent;
    currentValue = parentValue;
  }
  const hasNext = commits.length > limit;
  if (hasNext) commits.pop();
  return { commits, hasNext };
}
