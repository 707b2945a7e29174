import type { Readable } from "node:stream";

/**
 * Content-addressed storage of file bytes, keyed by the SHA-256 of the content (64 lowercase hex digits).
 * Metadata (which repository, path or commit holds a blob) never lives here: the store only keeps bytes, one
 * copy per content. Every method is async so that a remote driver (S3) fits behind the same interface.
 */
export interface BlobStore {
  /**
   * Streams `source` into the store while hashing it. The blob becomes visible only once complete and
   * verified: when `expected.sha256` or `expected.size` is given and the bytes do not match, nothing is kept
   * and BlobMismatchError is thrown. Putting content that is already stored is cheap and keeps one copy.
   */
  put(source: AsyncIterable<Uint8Array>, expected?: ExpectedBlob): Promise<BlobInfo>;
  /**
   * Streams `source` into the store under `key` (64 lowercase hex digits) without hashing it: for content the
   * caller addresses and verifies itself as the bytes pass (a Xet xorb under its Xet hash, checked chunk by
   * chunk: docs/decisions/xet-xorb-keys.md). The caller verifies by throwing from `source` before it ends:
   * nothing is kept then, as with put. `expected.size` is checked as put checks it. Content already stored
   * under `key` is still read to its end (the caller's checks run) and kept once, its time refreshed.
   */
  putKeyed(key: string, source: AsyncIterable<Uint8Array>, expected?: { size?: number }): Promise<BlobInfo>;
  /**
   * Takes a complete file into the store by moving it instead of copying it (a large download the hub wrote
   * to disk itself). The bytes are hashed and checked as put's are; a mismatch throws BlobMismatchError and
   * leaves the file where it was. Only drivers on a file system have it (S3 does not: callers put then);
   * a file on another disk than the store's is copied.
   */
  adopt?(path: string, expected?: ExpectedBlob, options?: AdoptOptions): Promise<BlobInfo>;
  /** The bytes of a blob, or of `range` (inclusive offsets, as HTTP ranges), as a stream. */
  get(sha256: string, range?: ByteRange): Promise<Readable>;
  /** Reads a byte range into memory (small reads: headers of safetensors and GGUF files). */
  read(sha256: string, range: ByteRange): Promise<Buffer>;
  head(sha256: string): Promise<BlobInfo | undefined>;
  /**
   * Removes a blob; removing a missing blob is not an error. With `unlessModifiedSince`, a blob stored (or
   * stored again) at or after that time is kept: garbage collection passes it so that content an upload is
   * putting again right now is never lost (drivers make the check and the removal as atomic as they can).
   */
  delete(sha256: string, options?: { unlessModifiedSince?: number }): Promise<void>;
  /** Every stored blob's key (for garbage collection). */
  list(): AsyncIterable<string>;
  /**
   * A URL the client may GET the blob from directly, without the hub (an object store's presigned URL);
   * only drivers whose storage clients can reach have it.
   */
  downloadUrl?(sha256: string, options: DownloadUrlOptions): Promise<string>;
  /**
   * The blob's path relative to the store's root directory, for a web server in front of the hub that reads
   * the same directory and sends the bytes itself (DOWNLOAD_OFFLOAD=x-accel); only drivers on a file system
   * have it. Says nothing about whether the blob is there.
   */
  relativePath?(sha256: string): string;
  /**
   * The blob's absolute path on this machine, for answers that read the file themselves
   * (http/file-response-body.ts); only drivers on a file system have it. Says nothing about whether the blob
   * is there.
   */
  localPath?(sha256: string): string;
}

export interface DownloadUrlOptions {
  /** Content-Disposition and Content-Type the storage answers with (the file's name, not its hash). */
  contentDisposition: string;
  contentType: string;
  expiresInSeconds: number;
}

export interface AdoptOptions {
  /**
   * The caller wrote the file itself and hashed every byte it wrote: they hash to `expected.sha256` (which,
   * with `expected.size`, must then be given). The store checks the size and does not read the file again
   * (a mirror's verified transfer: bench/results/2026-11-29-mirror-2.md, the second hash of every byte).
   */
  hashedByCaller?: boolean;
}

export interface ExpectedBlob {
  sha256?: string;
  size?: number;
}

export interface BlobInfo {
  sha256: string;
  size: number;
  /**
   * When the blob was last stored, in ms since the epoch: a put of content already there refreshes it.
   * Drivers that cannot tell leave it out (garbage collection then never removes the blob).
   */
  modifiedAt?: number;
}

/** Inclusive byte offsets: `{start: 0, end: 9}` is the first ten bytes. */
export interface ByteRange {
  start: number;
  end: number;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isSha256(value: unknown): value is string {
  return typeof value === "string" && SHA256_HEX.test(value);
}

/** putKeyed's key: a store's keys are 64 lowercase hex digits, whichever hash names the bytes. */
export function assertBlobKey(key: string): void {
  if (!isSha256(key)) throw new TypeError(`putKeyed: the key must be 64 lowercase hex digits, not ${key}.`);
}

/** The uploaded bytes are not what the caller announced (hash or size); nothing was stored. */
export class BlobMismatchError extends Error {
  constructor(
    readonly expected: ExpectedBlob,
    readonly actual: BlobInfo,
  ) {
    super(
      expected.sha256 && expected.sha256 !== actual.sha256
        ? `The uploaded content hashes to sha256:${actual.sha256}, not the announced sha256:${expected.sha256}.`
        : `The uploaded content is ${actual.size} bytes, not the announced ${expected.size}.`,
    );
    this.name = "BlobMismatchError";
  }
}

export class BlobNotFoundError extends Error {
  constructor(readonly sha256: string) {
    super(`Blob sha256:${sha256} is not in the store.`);
    this.name = "BlobNotFoundError";
  }
}

/** The disk (or bucket) refused the write for lack of space; nothing was stored. */
export class StorageFullError extends Error {
  constructor() {
    super("The hub's storage is full: the upload was not stored.");
    this.name = "StorageFullError";
  }
}
