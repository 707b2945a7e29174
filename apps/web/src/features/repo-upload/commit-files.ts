import { hubSend } from "../../lib/api/hub-fetch.js";
import { idPath, type RepoRef, repoApiUrl } from "../../lib/repo-ref.js";
import { putWithProgress } from "./put-with-progress.js";
import { sha256OfFile, UploadCancelledError } from "./sha256.js";

/** A file to commit at `path` (relative to the repository root). */
export interface PendingFile {
  path: string;
  file: Blob;
}

export interface CommitRequest {
  repo: RepoRef;
  revision: string;
  title: string;
  description: string;
  /** Open a pull request with the change instead of committing to the branch. */
  asPullRequest: boolean;
  files: PendingFile[];
  /** Paths to delete in the same commit. */
  deletions?: string[];
  /** The commit the change was made against: the hub refuses the commit (409) if the branch moved since. */
  parentCommit?: string;
  csrfToken: string;
}

export interface CommitResult {
  commitOid: string;
  commitUrl: string;
  pullRequestUrl?: string;
}

/** Where a file stands: waiting, hashing, uploading (bytes so far), or done. */
export type FileProgress = { phase: "waiting" | "hashing" | "uploading" | "done"; bytes: number };

interface PreuploadAnswer {
  files: Array<{ path: string; uploadMode: "lfs" | "regular"; shouldIgnore: boolean }>;
}

interface LfsBatchAnswer {
  objects: Array<{
    oid: string;
    size: number;
    error?: { code: number; message: string };
    actions?: {
      upload?: { href: string; header?: Record<string, string> };
      verify?: { href: string; header?: Record<string, string> };
    };
  }>;
}

const PREUPLOAD_BATCH = 1000;
const SAMPLE_BYTES = 512;

/** The hub's origin-relative path of a URL it handed out (it answers on its public URL). */
function sameOrigin(url: string): string {
  const parsed = new URL(url, window.location.origin);
  return `${parsed.pathname}${parsed.search}`;
}

async function base64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (let index = 0; index < bytes.length; index += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  }
  return btoa(binary);
}

/**
 * Commits files the way huggingface_hub does: preupload decides LFS or inline per file; LFS files are hashed
 * (in a worker), sent through the LFS batch API's upload URL (streamed, with progress) and verified; then
 * one NDJSON commit names them. Small regular files go inline. `signal` cancels at any step.
 */
export async function commitFiles(
  request: CommitRequest,
  onProgress: (path: string, progress: FileProgress) => void,
  signal: AbortSignal,
): Promise<CommitResult> {
  const { repo, csrfToken } = request;
  const revision = encodeURIComponent(request.revision);
  const modes = new Map<string, "lfs" | "regular">();
  for (let start = 0; start < request.files.length; start += PREUPLOAD_BATCH) {
    const batch = request.files.slice(start, start + PREUPLOAD_BATCH);
    const files = await Promise.all(
      batch.map(async ({ path, file }) => ({
        path,
        size: file.size,
        sample: await base64(file.slice(0, SAMPLE_BYTES)),
      })),
    );
    const answer = await hubSend<PreuploadAnswer>(
      "POST",
      `${repoApiUrl(repo, `preupload/${revision}`)}${request.asPullRequest ? "?create_pr=1" : ""}`,
      csrfToken,
      { json: { files } },
      signal,
    );
    for (const entry of answer.files) modes.set(entry.path, entry.uploadMode);
  }

  const lines: unknown[] = [
    {
      key: "header",
      value: {
        summary: request.title,
        description: request.description,
        ...(request.parentCommit ? { parentCommit: request.parentCommit } : {}),
      },
    },
  ];
  // One large file at a time: the disk and the connection are the limit, not the number of requests.
  for (const { path, file } of request.files) {
    if (signal.aborted) throw new UploadCancelledError();
    if (modes.get(path) === "lfs") {
      onProgress(path, { phase: "hashing", bytes: 0 });
      const oid = await sha256OfFile(file, (bytes) => onProgress(path, { phase: "hashing", bytes }), signal);
      await uploadLfsObject(
        repo,
        csrfToken,
        oid,
        file,
        (bytes) => onProgress(path, { phase: "uploading", bytes }),
        signal,
      );
      lines.push({ key: "lfsFile", value: { path, algo: "sha256", oid, size: file.size } });
    } else {
      lines.push({ key: "file", value: { path, content: await base64(file), encoding: "base64" } });
    }
    onProgress(path, { phase: "done", bytes: file.size });
  }
  for (const path of request.deletions ?? []) lines.push({ key: "deletedFile", value: { path } });

  const query = request.asPullRequest ? "?create_pr=1" : "";
  return hubSend<CommitResult>(
    "POST",
    `${repoApiUrl(repo, `commit/${revision}`)}${query}`,
    csrfToken,
    { ndjson: lines },
    signal,
  );
}

async function uploadLfsObject(
  repo: RepoRef,
  csrfToken: string,
  oid: string,
  file: Blob,
  onProgress: (bytes: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const prefix = repo.type === "model" ? "" : `/${repo.type}s`;
  const batchUrl = `${prefix}/${idPath(repo.id)}.git/info/lfs/objects/batch`;
  const response = await fetch(batchUrl, {
    method: "POST",
    headers: {
      accept: "application/vnd.git-lfs+json",
      "content-type": "application/vnd.git-lfs+json",
      "X-CSRF-Token": csrfToken,
    },
    body: JSON.stringify({
      operation: "upload",
      transfers: ["basic"],
      hash_algo: "sha256",
      objects: [{ oid, size: file.size }],
    }),
    signal,
  });
  if (!response.ok)
    throw new Error(`The hub refused the upload of ${oid.slice(0, 12)} (${response.status}).`);
  const object = ((await response.json()) as LfsBatchAnswer).objects[0];
  if (object?.error) throw new Error(object.error.message);
  const upload = object?.actions?.upload;
  // No upload action: the hub has these bytes already.
  if (!upload) return onProgress(file.size);
  await putWithProgress(
    sameOrigin(upload.href),
    file,
    { ...(upload.header ?? {}), "X-CSRF-Token": csrfToken },
    onProgress,
    signal,
  );
  const verify = object.actions?.verify;
  if (verify) {
    const verified = await fetch(sameOrigin(verify.href), {
      method: "POST",
      headers: {
        ...(verify.header ?? {}),
        "content-type": "application/vnd.git-lfs+json",
        "X-CSRF-Token": csrfToken,
      },
      body: JSON.stringify({ oid, size: file.size }),
      signal,
    });
    if (!verified.ok) throw new Error(`The hub could not verify the upload of ${oid.slice(0, 12)}.`);
  }
}
