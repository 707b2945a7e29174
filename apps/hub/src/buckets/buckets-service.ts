import type { Actor } from "../auth/actor.js";
import { type Authorizer, type BucketResource, repoNotFound } from "../auth/authorize.js";
import { isValidIdPart } from "../catalogue/model-id.js";
import { ConflictError, EntryNotFoundError, InvalidInputError, NotFoundError } from "../errors.js";
import type { CasService } from "../lfs-xet/cas-service.js";
import { isHashHex } from "../lfs-xet/hashes.js";
import type { XetFileRow } from "../lfs-xet/xet-records.js";
import { XET_TOKEN_SECONDS, type XetSigner } from "../lfs-xet/xet-tokens.js";
import { parseFolderPath, parseRepoPath } from "../repos/repo-path.js";
import type { RepoType } from "../repos/repo-records.js";
import type { Store } from "../store/store.js";
import type { BucketFile, BucketRecord } from "./buckets-table.js";

/**
 * Storage buckets as @huggingface/hub calls them (`/api/buckets/{namespace}/{name}`): flat, mutable storage of
 * files by path, no git history, every file a Xet file. Uploads go through the hub's own CAS with a bucket's
 * write token; a batch then adds what the bucket uploaded (or already holds), copies files a caller may read
 * from another bucket or repository (by Xet hash, no bytes moved), and deletes paths. Private buckets are
 * hidden from whoever may not see them, as private repositories are (auth/authorize.ts BucketResource).
 */

/** One line of POST /api/buckets/{id}/batch (NDJSON), as @huggingface/hub's commit sends them. */
export type BucketOperation =
  | { type: "addFile"; path: string; xetHash: string }
  | { type: "copyFile"; path: string; xetHash: string; sourceRepoType: string; sourceRepoId: string }
  | { type: "deleteFile"; path: string }
  /** A line the route could not read: reported as failed, in its place. */
  | { type: "invalid"; path: string; error: string };

export interface BatchResult {
  success: boolean;
  processed: number;
  succeeded: number;
  failed: { path: string; error: string }[];
}

/** A tree or paths-info entry of a bucket (the public hub's shape: files carry their Xet hash). */
export type BucketEntry =
  | { type: "file"; path: string; size: number; xetHash: string; uploadedAt: string }
  | { type: "directory"; path: string; size: 0 };

export interface BucketsServiceDeps {
  store: Store;
  authorizer: Authorizer;
  xetSigner: XetSigner;
  cas: Pick<CasService, "file">;
  /** Where the CAS is served (the casUrl handed out with tokens). */
  casUrl: string;
  /** The kind of account a namespace is, or undefined when there is none. */
  namespaceKind(name: string): Promise<"user" | "org" | undefined>;
  /**
   * Whether `actor` may read the files of repository `type`/`id` and its history holds the Xet file `xetHash`
   * (what a copy from a repository needs). False for a repository the actor may not see.
   */
  repositoryHolds(actor: Actor, type: RepoType, id: string, xetHash: string): Promise<boolean>;
  now?: () => Date;
}

const BUCKET_TYPES = new Set(["bucket", "buckets"]);
const REPO_TYPES: Record<string, RepoType> = {
  model: "model",
  models: "model",
  dataset: "dataset",
  datasets: "dataset",
  space: "space",
  spaces: "space",
};

function bucketResource(bucket: BucketRecord): BucketResource {
  return { kind: "bucket", owner: bucket.owner, id: bucket.id, private: bucket.private };
}

/** `owner/name`, each part as a repository id's. */
export function parseBucketId(namespace: string, name: string): { id: string; owner: string } {
  if (!isValidIdPart(namespace) || !isValidIdPart(name)) {
    throw new InvalidInputError(
      `Invalid bucket id ${JSON.stringify(`${namespace}/${name}`.slice(0, 200))}: expected "namespace/name" with letters, digits, "-", "_" and "." (no "..", at most 96 characters each).`,
    );
  }
  return { id: `${namespace}/${name}`, owner: namespace };
}

export function createBucketsService(deps: BucketsServiceDeps) {
  const { store, authorizer } = deps;
  const now = deps.now ?? (() => new Date());

  /** The bucket, if the actor may do `action` to it; a hidden one answers as a missing one. */
  async function find(actor: Actor, id: string, action: "read" | "read-files" | "write" | "manage") {
    const bucket = await store.buckets.get(id);
    if (!bucket) throw repoNotFound(actor, id);
    await authorizer.authorize(actor, action, bucketResource(bucket));
    return bucket;
  }

  /** The Xet file, when this bucket uploaded it or already holds it (a copy within the bucket). */
  async function addable(bucket: BucketRecord, xetHash: string): Promise<XetFileRow | undefined> {
    if (
      !(await store.buckets.uploaded(bucket.key, xetHash)) &&
      !(await store.buckets.holds(bucket.key, xetHash))
    )
      return undefined;
    return deps.cas.file(xetHash);
  }

  /** The Xet file a copy names, when its source is readable by the actor and holds it. */
  async function copyable(
    actor: Actor,
    operation: Extract<BucketOperation, { type: "copyFile" }>,
  ): Promise<XetFileRow | string> {
    const sourceType = operation.sourceRepoType;
    const sourceId = operation.sourceRepoId;
    if (typeof sourceId !== "string" || !sourceId.includes("/"))
      return "sourceRepoId must be namespace/name.";
    if (BUCKET_TYPES.has(sourceType)) {
      const source = await store.buckets.get(sourceId);
      const holds =
        source !== undefined &&
        (await authorizer.can(actor, "read-files", bucketResource(source))) &&
        (await store.buckets.holds(source.key, operation.xetHash));
      if (!holds) {
        return `The source bucket ${sourceId} holds no file ${operation.xetHash} you may read.`;
      }
    } else {
      const type = REPO_TYPES[sourceType];
      if (!type) return `Unknown sourceRepoType ${JSON.stringify(String(sourceType).slice(0, 40))}.`;
      if (!(await deps.repositoryHolds(actor, type, sourceId, operation.xetHash))) {
        return `The source ${type} ${sourceId} holds no file ${operation.xetHash} you may read.`;
      }
    }
    return (await deps.cas.file(operation.xetHash)) ?? `Xet file ${operation.xetHash} is not stored here.`;
  }

  const fileEntry = (file: BucketFile): BucketEntry => ({
    type: "file",
    path: file.path,
    size: file.size,
    xetHash: file.xetHash,
    uploadedAt: file.uploadedAt,
  });

  const service = {
    async create(actor: Actor, id: { id: string; owner: string }, options: { private: boolean }) {
      await authorizer.authorize(actor, "write", { kind: "namespace", name: id.owner });
      if (!(await deps.namespaceKind(id.owner))) {
        throw new NotFoundError(`No user or organization is named "${id.owner}".`);
      }
      const created = await store.buckets.insert({
        id: id.id,
        owner: id.owner,
        private: options.private,
        now: now().toISOString(),
      });
      if (!created) throw new ConflictError(`You already created this bucket: ${id.id}.`);
      return created;
    },

    async delete(actor: Actor, id: string): Promise<void> {
      const bucket = await find(actor, id, "manage");
      await store.buckets.delete(bucket.key);
    },

    info: (actor: Actor, id: string) => find(actor, id, "read"),

    /** Throws unless the actor may write to the bucket (checked before a batch's body is read). */
    async assertWritable(actor: Actor, id: string): Promise<void> {
      await find(actor, id, "write");
    },

    /** The CAS's questions about a bucket token's bucket (lfs-xet/cas-routes.ts). */
    cas: {
      holds: (bucketKey: number, xetHash: string) => store.buckets.holds(bucketKey, xetHash),
      uploaded: (bucketKey: number, xetHashes: readonly string[]) =>
        store.buckets.addUploads(bucketKey, xetHashes, now().toISOString()),
    },

    /** A short-lived CAS token for the bucket: reading needs its files' access, writing the right to write. */
    async xetToken(actor: Actor, id: string, scope: "read" | "write") {
      const bucket = await find(actor, id, scope === "read" ? "read-files" : "write");
      const exp = Math.floor(now().getTime() / 1000) + XET_TOKEN_SECONDS;
      const accessToken = deps.xetSigner.issue({ repoKey: bucket.key, scope, expiresAt: exp, bucket: true });
      return { accessToken, exp, casUrl: deps.casUrl };
    },

    /** The files and folders under `dir` ("" = the root): direct children, or every file with `recursive`. */
    async tree(actor: Actor, id: string, dir: string, recursive: boolean): Promise<BucketEntry[]> {
      const bucket = await find(actor, id, "read-files");
      const folder = dir ? parseFolderPath(dir) : "";
      const prefix = folder ? `${folder}/` : "";
      const files = await store.buckets.files(bucket.key, prefix);
      if (folder && files.length === 0) throw new EntryNotFoundError(folder);
      if (recursive) return files.map(fileEntry);
      const entries: BucketEntry[] = [];
      const folders = new Set<string>();
      for (const file of files) {
        const rest = file.path.slice(prefix.length);
        const slash = rest.indexOf("/");
        if (slash < 0) {
          entries.push(fileEntry(file));
        } else {
          const path = `${prefix}${rest.slice(0, slash)}`;
          if (!folders.has(path)) {
            folders.add(path);
            entries.push({ type: "directory", path, size: 0 });
          }
        }
      }
      return entries;
    },

    /** What each asked path is: a file, a folder (some file under it), or nothing (left out). */
    async pathsInfo(actor: Actor, id: string, paths: readonly string[]): Promise<BucketEntry[]> {
      const bucket = await find(actor, id, "read-files");
      const wanted = paths.map((path) => parseFolderPath(path));
      const found = new Map(
        (await store.buckets.filesAt(bucket.key, wanted)).map((file) => [file.path, file]),
      );
      const entries: BucketEntry[] = [];
      for (const path of wanted) {
        const file = found.get(path);
        if (file) entries.push(fileEntry(file));
        else if ((await store.buckets.files(bucket.key, `${path}/`)).length > 0) {
          entries.push({ type: "directory", path, size: 0 });
        }
      }
      return entries;
    },

    /** The file at `path`, to download. */
    async file(
      actor: Actor,
      id: string,
      path: string,
    ): Promise<{ bucket: BucketRecord; file: BucketFile; xet: XetFileRow }> {
      const bucket = await find(actor, id, "read-files");
      const [file] = await store.buckets.filesAt(bucket.key, [parseRepoPath(path)]);
      const xet = file && (await deps.cas.file(file.xetHash));
      if (!file || !xet) throw new EntryNotFoundError(path);
      return { bucket, file, xet };
    },

    /**
     * Applies a batch in order, each operation on its own (the public hub's batch is not a transaction): what
     * fails is reported with why, the rest is done.
     */
    async batch(actor: Actor, id: string, operations: readonly BucketOperation[]): Promise<BatchResult> {
      const bucket = await find(actor, id, "write");
      const failed: BatchResult["failed"] = [];
      let succeeded = 0;
      const at = now().toISOString();
      for (const operation of operations) {
        const path = typeof operation.path === "string" ? operation.path : "";
        try {
          if (operation.type === "invalid") {
            failed.push({ path, error: operation.error });
            continue;
          }
          const checked = parseRepoPath(path);
          if (operation.type === "deleteFile") {
            if (!(await store.buckets.deleteFile(bucket.key, checked))) {
              failed.push({ path, error: `No file at ${checked}.` });
              continue;
            }
          } else {
            if (typeof operation.xetHash !== "string" || !isHashHex(operation.xetHash)) {
              failed.push({ path, error: "xetHash must be a Xet hash (64 lowercase hex digits)." });
              continue;
            }
            const xet =
              operation.type === "addFile"
                ? ((await addable(bucket, operation.xetHash)) ??
                  `Xet file ${operation.xetHash} was not uploaded to this bucket: upload it with the bucket's write token first.`)
                : await copyable(actor, operation);
            if (typeof xet === "string") {
              failed.push({ path, error: xet });
              continue;
            }
            await store.buckets.putFile(bucket.key, {
              path: checked,
              xetHash: xet.hash,
              size: xet.size,
              uploadedAt: at,
            });
          }
          succeeded++;
        } catch (error) {
          if (!(error instanceof InvalidInputError) && !(error as { status?: number }).status) throw error;
          failed.push({ path, error: (error as Error).message });
        }
      }
      if (succeeded > 0) await store.buckets.touch(bucket.key, at);
      return { success: failed.length === 0, processed: operations.length, succeeded, failed };
    },
  };
  return service;
}

export type BucketsService = ReturnType<typeof createBucketsService>;
