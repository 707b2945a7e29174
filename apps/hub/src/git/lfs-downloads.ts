import { Readable } from "node:stream";
import { createGrantSigner } from "../auth/signed-grants.js";
import { NotFoundError } from "../errors.js";
import { fileResponseBody } from "../http/file-response-body.js";
import type { CasService } from "../lfs-xet/cas-service.js";
import type { RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import type { RepoScanning } from "../repos/scan-port.js";

const SECRET_KEY = "lfs-download-secret";
/** How long a download URL from the LFS batch API stays valid (git-lfs uses it at once). */
export const DOWNLOAD_TTL_SECONDS = 60 * 60;

/** What a signed LFS download URL lets its holder do: read one object of one repository until `expires`. */
interface DownloadGrant {
  repo: number;
  oid: string;
  expires: number;
}

export interface LfsDownloadsDeps {
  /** The hub's settings table: where the signing key lives, so that every replica accepts every URL. */
  meta: { getOrCreate(key: string, value: string): Promise<string> };
  repos: Pick<RepoService, "holdsContent" | "storedContent" | "openContent" | "blobLocalPath">;
  cas?: Pick<CasService, "fileOfContent" | "read">;
  scanning?: Pick<RepoScanning, "assertContentServable">;
}

/**
 * The download side of the Git LFS batch API: an object a repository's commits reference gets a short-lived
 * signed URL on this hub (no credential is echoed back, and git-lfs sends none to it); one the repository
 * does not reference is "not found", wherever else the hub holds it (knowing a hash is never a capability).
 * The caller's right to read the repository's files was checked by the batch call (repoAssignment).
 */
export function createLfsDownloads(deps: LfsDownloadsDeps) {
  const signer = createGrantSigner<DownloadGrant>(deps.meta, SECRET_KEY, {
    invalid: "Invalid download URL: ask the LFS batch API for a new one.",
    expired: "This download URL has expired: ask for a new one.",
  });

  return {
    /** The batch answer's `actions` for one object, or undefined when the repository does not reference it. */
    async action(repo: RepoRecord, oid: string, publicUrl: string, now: number) {
      if (!(await deps.repos.holdsContent(repo, oid))) return undefined;
      const grant: DownloadGrant = { repo: repo.key, oid, expires: now + DOWNLOAD_TTL_SECONDS * 1000 };
      return {
        download: {
          href: `${publicUrl}/api/lfs-download/${await signer.sign(grant)}`,
          expires_in: DOWNLOAD_TTL_SECONDS,
        },
      };
    },

    /**
     * The bytes a signed download URL names, as an HTTP answer's body: 401 when forged or expired, 404 once
     * no longer referenced. A blob on this machine's disk is read into reused buffers (file-response-body.ts:
     * a 1 GiB `git lfs pull` is one such answer); an object store's and Xet reconstructions are streamed.
     */
    async open(token: string, now: number): Promise<{ size: number; body: ReadableStream<Uint8Array> }> {
      const grant = await signer.open(token, now);
      if (!(await deps.repos.holdsContent({ key: grant.repo }, grant.oid))) {
        throw new NotFoundError(`Object ${grant.oid} is not in this repository.`);
      }
      // SCAN_POLICY=block: unsafe content is refused here as on /resolve.
      await deps.scanning?.assertContentServable(grant.repo, grant.oid);
      const stored = await deps.repos.storedContent(grant.oid);
      if (stored) {
        const range = { start: 0, end: stored.size - 1 };
        const path = deps.repos.blobLocalPath?.(grant.oid);
        const body =
          stored.size === 0
            ? Readable.from([])
            : path
              ? fileResponseBody(path, range)
              : await deps.repos.openContent(grant.oid, range);
        return { size: stored.size, body: body instanceof Readable ? webStream(body) : body };
      }
      const xetFile = await deps.cas?.fileOfContent(grant.repo, grant.oid);
      if (xetFile && deps.cas) {
        return {
          size: xetFile.size,
          body: webStream(Readable.from(deps.cas.read(xetFile, 0, xetFile.size - 1))),
        };
      }
      throw new NotFoundError(`Object ${grant.oid} is not stored on this hub.`);
    },
  };
}

export type LfsDownloads = ReturnType<typeof createLfsDownloads>;

function webStream(stream: Readable): ReadableStream<Uint8Array> {
  return Readable.toWeb(stream) as ReadableStream<Uint8Array>;
}
