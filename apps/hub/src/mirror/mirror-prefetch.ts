import type { Readable } from "node:stream";
import { RevisionNotFoundError } from "../errors.js";
import type { FileRecord, RepoRecord, RepoType } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import type { Store } from "../store/store.js";
import type { MirrorPullReport, MirrorTarget } from "./mirror-commands.js";

/**
 * `mirror:pull`: a revision of an upstream repository and every one of its files, fetched into the cache
 * through the very path a first read takes (the mirror service imports the revision, the mirror content
 * fetches each LFS file as /resolve would), so a prefetched file is indistinguishable from a read one.
 */
export interface PrefetchDeps {
  store: Store;
  repos: Pick<RepoService, "resolve">;
  /** The mirror service's pull (mirror-service.ts): looks the repository up and imports the revision. */
  mirror: { pull(type: RepoType, id: string, revision: string): Promise<RepoRecord> };
  /** The mirror content's open (mirror-content.ts): the bytes of a file not cached yet, stored as read. */
  content: {
    open(
      repo: RepoRecord,
      commitOid: string,
      file: Pick<FileRecord, "path" | "sha256" | "size">,
      range: { start: number; end: number },
    ): Promise<Readable>;
    /** Whether the transfer of a content is still under way (verifying and storing after its last byte). */
    isReading(sha256: string): boolean;
  };
  /** Files fetched at once (default 4). */
  parallelism?: number;
}

export async function prefetchRevision(
  deps: PrefetchDeps,
  target: MirrorTarget,
  revision: string,
): Promise<MirrorPullReport> {
  const repo = await deps.mirror.pull(target.type, target.id, revision);
  const resolved = await deps.repos.resolve(repo, revision);
  if (!resolved) throw new RevisionNotFoundError(revision);
  const files = await deps.store.repos.files(repo.key, resolved.commitOid);
  const missing: FileRecord[] = [];
  for (const file of files) {
    if (file.lfs && !(await deps.store.mirror.content(file.sha256))?.stored) missing.push(file);
  }
  let fetchedBytes = 0;
  const queue = [...missing];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      if (file.size === 0) continue;
      const body = await deps.content.open(repo, resolved.commitOid, file, { start: 0, end: file.size - 1 });
      // Read to the end: the transfer stores the content once every byte was verified.
      for await (const piece of body) fetchedBytes += (piece as Uint8Array).length;
      // The last byte is read before the transfer is verified and kept: wait for that, so that the report
      // (and the next pull) sees it cached.
      while (deps.content.isReading(file.sha256)) await new Promise((resolve) => setTimeout(resolve, 20));
      if (!(await deps.store.mirror.content(file.sha256))?.stored) {
        throw new Error(
          `${repo.id}/${file.path} was read from upstream but not kept (see the hub's log); pull again.`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.parallelism ?? 4) }, worker));
  return {
    type: repo.type,
    id: repo.id,
    revision,
    commit: resolved.commitOid,
    files: files.length,
    fetchedBytes,
    cachedBytes: files.filter((file) => file.lfs).reduce((n, file) => n + file.size, 0),
  };
}
