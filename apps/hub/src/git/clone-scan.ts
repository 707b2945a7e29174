import { HubError } from "../errors.js";
import type { RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import type { RepoScanning } from "../repos/scan-port.js";

/**
 * SCAN_POLICY=block on git (docs/decisions/git-http.md, "Scanning"): a clone or fetch carries the bytes of every
 * regular (non-LFS) file, so it is refused while a branch, tag or pull request of the repository holds one
 * the scanner found unsafe and nobody allowed, with /resolve's message naming the file and how to get it
 * allowed. LFS files travel as pointers (their bytes come through the LFS download URLs, which check on
 * their own). Under `warn` nothing is refused (assertContentServable passes).
 */
export async function assertClonable(
  deps: { repos: Pick<RepoService, "refs" | "files">; scanning?: RepoScanning },
  repo: RepoRecord,
): Promise<void> {
  const scanning = deps.scanning;
  // Under "warn" nothing is refused: no need to read every file of every ref tip (10,000 files and their
  // scan statuses on each of a clone's three requests).
  if (!scanning || scanning.policy === "warn") return;
  const tips = new Set((await deps.repos.refs(repo)).map((ref) => ref.commitOid));
  const checked = new Set<string>();
  for (const tip of tips) {
    const files = (await deps.repos.files(repo, tip)).filter(
      (file) => !file.lfs && !checked.has(`${file.sha256}:${file.path}`),
    );
    for (const file of files) checked.add(`${file.sha256}:${file.path}`);
    const statuses = await scanning.fileStatuses(files);
    for (const file of files) {
      if (statuses.get(file.path)?.status !== "unsafe") continue;
      // Refused unless the policy is warn or an owner allowed it.
      try {
        await scanning.assertContentServable(repo.key, file.sha256);
      } catch (error) {
        if (error instanceof HubError && error.status === 403) throw new CloneBlockedError(repo, file.path);
        throw error;
      }
    }
  }
}

/** A clone refused under SCAN_POLICY=block: git prints the message ("remote: ..."). */
export class CloneBlockedError extends HubError {
  constructor(repo: RepoRecord, path: string) {
    const api = `/api/${repo.type}s/${repo.id}`;
    super(
      403,
      "unsafe_file",
      `git clone and fetch of ${repo.id} are refused: ${path} was found unsafe by this hub's scanner (SCAN_POLICY=block). See its scan report at ${api}/scan/main/${path}; an owner of the repository (or a site admin) can allow it if it is trusted (POST ${api}/scan-allow/main/${path}), or delete it from the branches that hold it.`,
    );
  }
}
