import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import {
  assertBlobKey,
  type BlobInfo,
  BlobMismatchError,
  BlobNotFoundError,
  type BlobStore,
  type ByteRange,
  type DownloadUrlOptions,
  type ExpectedBlob,
  isSha256,
} from "./blob-store.js";

export interface S3BlobStoreOptions {
  bucket: string;
  /** Key prefix every object of this hub lives under ("" or ending in "/"). */
  prefix: string;
  /** An S3-compatible server's URL (MinIO, Ceph, R2...); undefined means AWS S3 of `region`. */
  endpoint?: string;
  /** Where clients reach the store, when it differs from `endpoint` (presigned download URLs use it). */
  publicEndpoint?: string;
  region: string;
  /** `bucket` in the path rather than the host name: what most local and self-hosted servers need. */
  forcePathStyle: boolean;
  /** Explicit keys; undefined lets the SDK's default chain find them (profile, web identity, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Bytes per multipart part (default 8 MiB); with `queueSize` parts in flight this bounds memory. */
  partSize?: number;
  queueSize?: number;
  /** Attempts per S3 call, retries of throttling and 5xx answers included (the SDK's default: 3). */
  maxAttempts?: number;
  /** Told about every S3 call: its command name, HTTP status (0: no answer) and duration. */
  observe?: (call: { operation: string; status: number; seconds: number }) => void;
}

const MIN_PART_SIZE = 5 * 1024 * 1024;
/** S3's limit for one CopyObject; only uploads of unannounced content (small: xorbs, inline files) copy. */
const MAX_COPY_BYTES = 5 * 1024 ** 3;

/**
 * The S3-compatible driver, through the AWS SDK: `<prefix>sha256/ab/cd/<sha256>`, the same layout as the fs
 * driver. Uploads stream through lib-storage's multipart upload (at most `partSize × queueSize` bytes in
 * memory) while being hashed. When the caller announced the sha256 (LFS, Xet files), the upload goes straight
 * to its final key and a mismatch is thrown from the body stream before the last part, so lib-storage aborts
 * the multipart upload and nothing becomes visible. Unannounced content goes to `<prefix>tmp/` first and is
 * copied into place once its hash is known.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const config: S3ClientConfig = {
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials: options.credentials,
    maxAttempts: options.maxAttempts,
    // The SDK's default CRC32 trailers (aws-chunked bodies) are not understood by many S3-compatible
    // servers; the hub verifies content by sha256 itself.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  };
  const client = new S3Client(config);
  const presigner =
    options.publicEndpoint && options.publicEndpoint !== options.endpoint
      ? new S3Client({ ...config, endpoint: options.publicEndpoint })
      : client;
  if (options.observe) observeCalls(client, options.observe);
  const { bucket, prefix } = options;
  const partSize = Math.max(MIN_PART_SIZE, options.partSize ?? 8 * 1024 * 1024);
  const queueSize = options.queueSize ?? 4;

  const keyOf = (sha256: string) => {
    if (!isSha256(sha256)) throw new BlobNotFoundError(String(sha256).slice(0, 80));
    return `${prefix}sha256/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  };

  async function head(sha256: string): Promise<BlobInfo | undefined> {
    try {
      const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(sha256) }));
      return { sha256, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async function getObject(sha256: string, range?: ByteRange) {
    try {
      return await client.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: keyOf(sha256),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(sha256);
      throw error;
    }
  }

  async function upload(key: string, body: AsyncIterable<Uint8Array>): Promise<void> {
    await new Upload({
      client,
      params: { Bucket: bucket, Key: key, Body: Readable.from(body, { objectMode: false }) },
      partSize,
      queueSize,
    }).done();
  }

  return {
    async put(source: AsyncIterable<Uint8Array>, expected: ExpectedBlob = {}): Promise<BlobInfo> {
      const hash = createHash("sha256");
      let actual: BlobInfo | undefined;
      let refused: BlobMismatchError | undefined;
      // Hashes what passes through; throws (ending the upload unfinished) when it is not what was announced.
      const verified = async function* () {
        let size = 0;
        for await (const chunk of source) {
          hash.update(chunk);
          size += chunk.byteLength;
          if (expected.size !== undefined && size > expected.size) {
            refused = new BlobMismatchError(expected, { sha256: hash.copy().digest("hex"), size });
            throw refused;
          }
          yield chunk;
        }
        actual = { sha256: hash.digest("hex"), size };
        if (
          (expected.sha256 !== undefined && expected.sha256 !== actual.sha256) ||
          (expected.size !== undefined && expected.size !== actual.size)
        ) {
          refused = new BlobMismatchError(expected, actual);
          throw refused;
        }
      };
      // The mismatch is the answer even when cleaning up the unfinished upload failed too.
      const uploadChecked = (key: string) =>
        upload(key, verified()).catch((error: unknown) => {
          throw refused ?? error;
        });

      if (expected.sha256 !== undefined && isSha256(expected.sha256)) {
        if (await head(expected.sha256)) {
          // Already stored: the bytes are still read and checked, but not sent again.
          for await (const _ of verified());
        } else {
          await uploadChecked(keyOf(expected.sha256));
        }
        return actual as BlobInfo;
      }

      const tmpKey = `${prefix}tmp/${randomBytes(12).toString("hex")}`;
      try {
        await uploadChecked(tmpKey);
        const info = actual as BlobInfo;
        if (!(await head(info.sha256))) {
          if (info.size > MAX_COPY_BYTES) {
            throw new Error(`Content of ${info.size} bytes must be uploaded with its sha256 announced.`);
          }
          await client.send(
            new CopyObjectCommand({
              Bucket: bucket,
              Key: keyOf(info.sha256),
              CopySource: `${bucket}/${tmpKey.split("/").map(encodeURIComponent).join("/")}`,
            }),
          );
        }
        return info;
      } finally {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: tmpKey })).catch(() => undefined);
      }
    },

    async putKeyed(
      key: string,
      source: AsyncIterable<Uint8Array>,
      expected: { size?: number } = {},
    ): Promise<BlobInfo> {
      assertBlobKey(key);
      let size = 0;
      let refused: Error | undefined;
      // Counts what passes through; the caller's own checks throw from `source`, ending the upload unfinished.
      const counted = async function* () {
        try {
          for await (const chunk of source) {
            size += chunk.byteLength;
            if (expected.size !== undefined && size > expected.size) {
              throw new BlobMismatchError(expected, { sha256: key, size });
            }
            yield chunk;
          }
          if (expected.size !== undefined && size !== expected.size) {
            throw new BlobMismatchError(expected, { sha256: key, size });
          }
        } catch (error) {
          refused = error as Error;
          throw error;
        }
      };
      if (await head(key)) {
        // Already stored: the bytes are still read (the caller's checks run), but not sent again.
        for await (const _ of counted());
      } else {
        // The refusal is the answer even when cleaning up the unfinished upload failed too.
        await upload(keyOf(key), counted()).catch((error: unknown) => {
          throw refused ?? error;
        });
      }
      return { sha256: key, size };
    },

    async get(sha256: string, range?: ByteRange): Promise<Readable> {
      const answer = await getObject(sha256, range);
      return answer.Body as Readable;
    },

    async read(sha256: string, range: ByteRange): Promise<Buffer> {
      if (range.end < range.start) {
        if (!(await head(sha256))) throw new BlobNotFoundError(sha256);
        return Buffer.alloc(0);
      }
      try {
        const answer = await getObject(sha256, range);
        return Buffer.from(
          await (answer.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
        );
      } catch (error) {
        // A range past the end reads nothing, as a short read of a file does.
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416)
          return Buffer.alloc(0);
        throw error;
      }
    },

    head,

    async delete(sha256: string): Promise<void> {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(sha256) }));
    },

    async *list(): AsyncIterable<string> {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}sha256/`, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(object.Key.lastIndexOf("/") + 1);
          if (isSha256(name)) yield name;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    async downloadUrl(sha256: string, download: DownloadUrlOptions): Promise<string> {
      return getSignedUrl(
        presigner,
        new GetObjectCommand({
          Bucket: bucket,
          Key: keyOf(sha256),
          ResponseContentDisposition: download.contentDisposition,
          ResponseContentType: download.contentType,
        }),
        { expiresIn: download.expiresInSeconds },
      );
    },
  };
}

function isNotFound(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.$metadata.httpStatusCode === 404 || error.name === "NoSuchKey" || error.name === "NotFound";
}

/** Reports each command's outcome and duration (for /metrics) from the client's middleware stack. */
function observeCalls(client: S3Client, observe: NonNullable<S3BlobStoreOptions["observe"]>): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const started = performance.now();
      const operation = (context.commandName ?? "unknown").replace(/Command$/, "");
      try {
        const result = await next(args);
        const status = (result.response as { statusCode?: number } | undefined)?.statusCode ?? 200;
        observe({ operation, status, seconds: (performance.now() - started) / 1000 });
        return result;
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? 0;
        observe({ operation, status, seconds: (performance.now() - started) / 1000 });
        throw error;
      }
    },
    { step: "initialize", name: "hubObserveCalls" },
  );
}
