import { HubError, InvalidInputError } from "../errors.js";
import { createContentClaims } from "../repos/content-claims.js";
import type { RepoAccess, RepoActor } from "../repos/repo-access.js";
import type { RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import { BlobMismatchError } from "../storage/blob-store.js";
import type { Store } from "../store/store.js";
import { openGrant, signGrant, type UploadGrant } from "./lfs-grants.js";

export interface LfsServiceDeps {
  store: Store;
  repos: RepoService;
  access: RepoAccess;
}

/**
 * Git LFS uploads (lfs-routes.ts, lfs-multipart.ts): the signed upload URLs, the objects a repository may
 * reference without an upload, and the uploads themselves, whose bytes are checked against the granted sha256
 * and size as they stream into the blob store. The routes reach the tables and the blob store only here.
 */
export function createLfsService({ store, repos, access }: LfsServiceDeps) {
  const claims = createContentClaims({ store, blobs: repos.blobs, access });

  /** Stores `source`; bytes that are not what was announced are the caller's error and nothing is kept. */
  async function put(
    source: AsyncIterable<Uint8Array>,
    expected: { sha256?: string; size: number },
    what = "",
  ) {
    try {
      return await repos.putBlob(source, expected);
    } catch (error) {
      if (error instanceof BlobMismatchError)
        throw new HubError(400, "invalid_input", `${what}${error.message}`);
      throw error;
    }
  }

  return {
    /** The URL segment `{payload}.{signature}` of an upload grant. */
    signGrant: (grant: UploadGrant) => signGrant(store, grant),
    /** The grant a signed URL carries; refused when forged or expired. */
    openGrant: (payload: string, signature: string, now: number) => openGrant(store, payload, signature, now),

    /** Content this repository may reference without an upload (content-claims.ts), or undefined. */
    claim: (actor: RepoActor, repo: RepoRecord, oid: string) => claims.claim(actor, repo, oid),

    /** A whole object's upload: stored when its bytes match the grant, then attached to the repository. */
    async receiveObject(grant: UploadGrant, body: AsyncIterable<Uint8Array>, now: number): Promise<void> {
      await put(body, { sha256: grant.oid, size: grant.size });
      await store.repos.addLfsObject(grant.repo, grant.oid, grant.size, new Date(now).toISOString());
    },

    /** One part of a multipart upload, stored as a blob of its own and recorded; its sha256 is its ETag. */
    async receivePart(grant: UploadGrant, body: AsyncIterable<Uint8Array>, size: number, now: number) {
      const info = await put(body, { size }, `Part ${grant.part}: `);
      await store.uploadParts.record(
        grant.repo,
        grant.oid,
        grant.part!,
        info.sha256,
        new Date(now).toISOString(),
      );
      return info.sha256;
    },

    /**
     * Completes a multipart upload from the parts its own part URLs received (naming another blob by its
     * sha256, another repository's object or a Xet xorb, is refused), then removes the part blobs nothing
     * else references (blob GC's one reference count decides).
     */
    async assemble(
      grant: UploadGrant,
      parts: readonly string[],
      partSize: (part: number) => number,
      now: number,
    ) {
      for (const [index, sha256] of parts.entries()) {
        const received = await store.uploadParts.received(grant.repo, grant.oid, index + 1, sha256);
        const stored = received ? await repos.blobs.head(sha256) : undefined;
        if (stored?.size !== partSize(index + 1)) {
          throw new InvalidInputError(
            `Part ${index + 1} was not uploaded (or has another size): upload it again.`,
          );
        }
      }
      const blobs = repos.blobs;
      async function* assembled() {
        for (const sha256 of parts) yield* await blobs.get(sha256);
      }
      await put(assembled(), { sha256: grant.oid, size: grant.size });
      await store.repos.addLfsObject(grant.repo, grant.oid, grant.size, new Date(now).toISOString());
      await store.uploadParts.forget(grant.repo, grant.oid);
      for (const sha256 of new Set(parts)) {
        if (sha256 !== grant.oid && !(await store.blobReferences.isReferenced(sha256))) {
          await blobs.delete(sha256);
        }
      }
    },

    /** Whether `oid` was uploaded for this repository with this size (the LFS verify call). */
    async uploaded(repo: Pick<RepoRecord, "key">, oid: string, size: unknown): Promise<boolean> {
      const stored = await repos.blobs.head(oid);
      return (
        stored !== undefined && stored.size === size && Boolean(await store.repos.lfsObject(repo.key, oid))
      );
    },
  };
}

export type LfsService = ReturnType<typeof createLfsService>;
