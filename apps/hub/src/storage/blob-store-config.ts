import { join } from "node:path";
import type { BlobStore } from "./blob-store.js";
import { createFsBlobStore } from "./fs-blob-store.js";
import { createS3BlobStore, type S3BlobStoreOptions } from "./s3-blob-store.js";

/** Where file bytes live: the data directory (default) or an S3-compatible bucket. */
export type BlobStoreSetting = { kind: "fs" } | ({ kind: "s3" } & Omit<S3BlobStoreOptions, "observe">);

/** How `/resolve` serves a stored file: through the hub, or by a 302 to a presigned URL of the bucket. */
export type BlobDownloadMode = "proxy" | "redirect";

/**
 * DOWNLOAD_OFFLOAD=x-accel: `/resolve` authorizes, then answers with `X-Accel-Redirect: <prefix><path>` (the
 * blob's path under the data directory's `blobs/`) and nginx, in front, sends the bytes from an `internal`
 * location (apps/hub/README.md has the configuration; docs/decisions/download-offload.md says why).
 */
export interface DownloadOffload {
  kind: "x-accel";
  /** The internal location's URL prefix, starting and ending with "/" (DOWNLOAD_OFFLOAD_PREFIX). */
  prefix: string;
}

export interface BlobSettings {
  blobStore: BlobStoreSetting;
  blobDownload: BlobDownloadMode;
  downloadOffload?: DownloadOffload;
}

const DEFAULT_OFFLOAD_PREFIX = "/_hub_blobs/";

/** Reads DOWNLOAD_OFFLOAD and DOWNLOAD_OFFLOAD_PREFIX; only a store in the data directory can be offloaded. */
function parseDownloadOffload(
  env: Record<string, string | undefined>,
  storeKind: BlobStoreSetting["kind"],
  problems: string[],
): DownloadOffload | undefined {
  const mode = env.DOWNLOAD_OFFLOAD?.trim();
  if (!mode || mode === "off") return undefined;
  if (mode !== "x-accel") {
    problems.push(`DOWNLOAD_OFFLOAD must be "x-accel" or unset, got "${mode}".`);
    return undefined;
  }
  if (storeKind !== "fs") {
    problems.push(
      "DOWNLOAD_OFFLOAD=x-accel serves files from the data directory: with BLOB_STORE=s3 use BLOB_DOWNLOAD=redirect instead.",
    );
    return undefined;
  }
  const prefix = env.DOWNLOAD_OFFLOAD_PREFIX?.trim() || DEFAULT_OFFLOAD_PREFIX;
  if (!/^\/[A-Za-z0-9._~/-]*\/$/.test(prefix) || prefix.includes("..") || prefix === "/") {
    problems.push(
      `DOWNLOAD_OFFLOAD_PREFIX must be a URL path of its own that starts and ends with "/" (the nginx internal location), got "${prefix}".`,
    );
    return undefined;
  }
  return { kind: "x-accel", prefix };
}

const S3_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

/**
 * Reads BLOB_STORE (`s3://bucket/prefix`; unset: the data directory), the usual AWS settings (AWS_REGION or
 * AWS_DEFAULT_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_ENDPOINT_URL_S3 or
 * AWS_ENDPOINT_URL), S3_FORCE_PATH_STYLE, S3_PUBLIC_ENDPOINT, BLOB_DOWNLOAD and DOWNLOAD_OFFLOAD(_PREFIX).
 * Problems are appended to `problems` so the whole configuration is reported at once.
 */
export function parseBlobSettings(env: Record<string, string | undefined>, problems: string[]): BlobSettings {
  const download = (env.BLOB_DOWNLOAD || "proxy") as BlobDownloadMode;
  if (download !== "proxy" && download !== "redirect") {
    problems.push(`BLOB_DOWNLOAD must be "proxy" or "redirect", got "${env.BLOB_DOWNLOAD}".`);
  }
  const raw = env.BLOB_STORE?.trim();
  if (!raw || raw === "fs") {
    if (download === "redirect") {
      problems.push("BLOB_DOWNLOAD=redirect needs an object store (BLOB_STORE=s3://bucket/prefix).");
    }
    return {
      blobStore: { kind: "fs" },
      blobDownload: "proxy",
      downloadOffload: parseDownloadOffload(env, "fs", problems),
    };
  }
  parseDownloadOffload(env, "s3", problems);
  const match = S3_URL.exec(raw);
  if (!match) {
    problems.push(`BLOB_STORE must be "fs" or s3://bucket/prefix, got "${raw}".`);
    return { blobStore: { kind: "fs" }, blobDownload: "proxy" };
  }
  const prefix = (match[2] ?? "").replace(/^\/+|\/+$/g, "");
  const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined;
  const publicEndpoint = env.S3_PUBLIC_ENDPOINT || undefined;
  for (const [name, value] of [
    ["AWS_ENDPOINT_URL_S3", endpoint],
    ["S3_PUBLIC_ENDPOINT", publicEndpoint],
  ] as const) {
    if (value && !/^https?:\/\/[^/]+/.test(value))
      problems.push(`${name} must be an http(s) URL, got "${value}".`);
  }
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle && !["0", "1", "true", "false"].includes(pathStyle)) {
    problems.push(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}".`);
  }
  const accessKeyId = env.AWS_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY || undefined;
  if (!!accessKeyId !== !!secretAccessKey) {
    problems.push("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together.");
  }
  return {
    blobStore: {
      kind: "s3",
      bucket: match[1]!,
      prefix: prefix ? `${prefix}/` : "",
      endpoint,
      publicEndpoint,
      region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1",
      // Self-hosted servers (an endpoint is set) mostly need the bucket in the path; AWS takes either.
      forcePathStyle: pathStyle ? pathStyle === "1" || pathStyle === "true" : endpoint !== undefined,
      credentials:
        accessKeyId && secretAccessKey
          ? { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN || undefined }
          : undefined,
    },
    blobDownload: download,
  };
}

/** Opens the configured store; `observe` is told about each call an S3 store makes (for /metrics). */
export async function openBlobStore(
  setting: BlobStoreSetting,
  dataDir: string,
  observe?: S3BlobStoreOptions["observe"],
): Promise<BlobStore> {
  if (setting.kind === "fs") return createFsBlobStore(join(dataDir, "blobs"));
  const { kind: _, ...options } = setting;
  return createS3BlobStore({ ...options, observe });
}
