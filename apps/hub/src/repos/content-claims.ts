import type { BlobStore } from "../storage/blob-store.js";
import type { Store } from "../store/store.js";
import type { RepoAccess, RepoActor } from "./repo-access.js";
import type { RepoRecord } from "./repos-table.js";

/** How many other repositories holding some content are asked whether the caller may read them. */
const HOLDERS_ASKED = 50;

/** What a claim found: the content's size, and where its bytes are (the blob store, or a Xet file). */
export interface ClaimedContent {
  size: number;
  xetFile?: string;
  /**
   * Claimed under rule 3 (another repository the caller may read holds it): nothing is attached to this
   * repository, so the next caller is judged for itself, at its own commit.
   */
  elsewhere: boolean;
}

export interface ContentClaimsDeps {
  store: Store;
  blobs: BlobStore;
  access: RepoAccess;
}

/**
 * The one rule of content-addressed storage (docs/security.md, "Content belongs to repositories"): a
 * repository may reference content (an LFS object, a Xet file) only when
 *   1. the caller uploaded those bytes for this repository: a verified LFS upload (`lfs_objects`) or a Xet
 *      file whose shard was accepted with this repository's token (its sha256 hashed by the hub), or
 *   2. the content is already reachable from this repository's history, or
 *   3. a repository the caller may download files of holds it.
 * Knowing a hash is never enough. Deduplication across repositories stays through 3: the second owner of a
 * file uploads nothing when the hub already holds it in a repository they can read, and the bytes are stored
 * once. A claim under 3 attaches nothing to this repository (an attached object could be committed by anyone
 * who may upload to it): the commit claims again, for its own author. The answer given to a caller who may
 * not claim is the same whether the content exists elsewhere or not (no oracle).
 */
export function createContentClaims({ store, blobs, access }: ContentClaimsDeps) {
  /** Where the bytes of this sha256 are, as far as the hub has checked them. */
  async function locate(sha256: string): Promise<Omit<ClaimedContent, "elsewhere"> | undefined> {
    const blob = await blobs.head(sha256);
    if (blob) return { size: blob.size };
    const file = await store.xet.fileBySha256(sha256);
    return file ? { size: file.size, xetFile: file.hash } : undefined;
  }

  async function readableElsewhere(actor: RepoActor, repo: RepoRecord, sha256: string): Promise<boolean> {
    for (const holder of await store.repos.reposHoldingContent(sha256, HOLDERS_ASKED)) {
      if (holder.key === repo.key) continue;
      // A mirrored repository holds what its upstream declared; the bytes are its own only once the mirror
      // fetched and verified them. Before that, a local file with the same sha256 must not become claimable
      // through it (an upstream that names a private file's hash would otherwise hand it out).
      if (holder.mirrorOf !== undefined && (await store.mirror.content(sha256))?.stored !== true) continue;
      if (await access.can(actor, "read-files", holder)) return true;
    }
    return false;
  }

  return {
    /**
     * The content `sha256` for a reference from `repo` by `actor`, or undefined when the actor may not
     * reference it (or the hub does not have it).
     */
    async claim(actor: RepoActor, repo: RepoRecord, sha256: string): Promise<ClaimedContent | undefined> {
      const ownXet = await store.xet.fileOfShaInRepo(sha256, repo.key);
      if (ownXet) {
        const file = await store.xet.file(ownXet);
        if (file) return { size: file.size, xetFile: file.hash, elsewhere: false };
      }
      const own =
        (await store.repos.lfsObject(repo.key, sha256)) !== undefined ||
        (await store.repos.repoHoldsContent(repo.key, sha256));
      if (!own && !(await readableElsewhere(actor, repo, sha256))) return undefined;
      const found = await locate(sha256);
      return found && { ...found, elsewhere: !own };
    },
  };
}

export type ContentClaims = ReturnType<typeof createContentClaims>;
