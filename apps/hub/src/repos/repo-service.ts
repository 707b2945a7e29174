import { Readable } from "node:stream";
import type { AuditRecorder } from "../audit/audit-log.js";
import { isValidIdPart } from "../catalogue/model-id.js";
import { deriveModel } from "../derive/derive-model.js";
import { deriveRepoCard } from "../derive/derive-repo-card.js";
import {
  ConflictError,
  EntryNotFoundError,
  InsufficientStorageError,
  InvalidInputError,
  RevisionNotFoundError,
} from "../errors.js";
import { type Logger, silentLogger } from "../logger.js";
import { type BlobStore, StorageFullError } from "../storage/blob-store.js";
import { isUniqueViolation } from "../store/database.js";
import type { Store, StoreTransaction } from "../store/store.js";
import { eventRepo, type HubEvent, type HubEventRecorder } from "../webhooks/hub-events.js";
import {
  applyCommit,
  type CommitOperation,
  type CommitResult,
  importedCommit,
  initialCommit,
  repoLock,
} from "./commit-engine.js";
import { historyPage } from "./commit-history.js";
import { gitBlobId } from "./git-objects.js";
import { DEFAULT_GITATTRIBUTES, lfsPatterns, matchesLfsPattern } from "./gitattributes.js";
import { MAX_GITIGNORE_BYTES } from "./gitignore.js";
import { squashedCommit } from "./history-squash.js";
import { deleteLfsFiles, type LfsDeletion, type LfsFileView, listLfsFiles } from "./lfs-files.js";
import { LFS_SIZE_THRESHOLD, lfsPointerText } from "./lfs-pointer.js";
import { ReadOnlyMirrorError } from "./repo-access.js";
import { repoAuditEntries } from "./repo-audit.js";
import type { CommitRecord, FileRecord, Gated, RepoRecord, RepoType } from "./repo-records.js";
import { branchRef, COMMIT_ID, parseRefName, refCandidates, SHORT_COMMIT_ID, tagRef } from "./revision.js";
import { REPO_CONTENTS_CHANGED, StorageSums } from "./storage-sums.js";
import { addXetHashes, entryAt, expandEntries, listTree, type TreeEntryView } from "./tree-listing.js";

/**
 * Bytes stored more recently than this are not freed by a permanent LFS deletion (blob GC frees them later):
 * an upload or commit of the same content elsewhere may have stored them and not yet recorded its reference.
 */
const RECENT_BLOB_MS = 10 * 60 * 1000;

/** Thrown by create(); the route turns it into the public hub's 409 with the existing repository's URL. */
export class RepoExistsError extends Error {
  constructor(
    readonly type: RepoType,
    readonly id: string,
  ) {
    super(`You already created this ${type} repo: ${id}.`);
    this.name = "RepoExistsError";
  }
}

export interface RepoServiceDeps {
  store: Store;
  blobs: BlobStore;
  now?: () => Date;
  /**
   * Told after a commit is durable of the files it added or changed (and of every file of a new or imported
   * commit): the content scanner queues them. Called without waiting, so it never slows the answer. `ref` is
   * the ref a commit moved (undefined for imports).
   */
  onFilesRecorded?: (repo: RepoRecord, files: readonly FileRecord[], ref?: string) => void;
  /**
   * Told, before the answer, that main moved (a commit, a push, a merge, a history rewrite) once the move is
   * durable: the dataset viewer queues the conversion there, so a client reading right after its commit
   * finds the conversion queued. A failure is the hook's to report: the move has happened either way.
   */
  onMainMoved?: (repo: RepoRecord, commitOid: string) => Promise<void>;
  /** Webhooks' events, queued in the transaction that made them (webhooks/hub-events.ts). */
  events?: HubEventRecorder;
  /** The audit log, written in the same transactions (audit/audit-log.ts, repo-audit.ts). */
  audit?: AuditRecorder;
  /** Where a failure to hear or tell other replicas of a content change is reported. */
  logger?: Logger;
}

/** One storage-sum cache per store, however many services share it, told of every content change once. */
const storageSumsByStore = new WeakMap<Store, StorageSums>();
function storageSumsOf(store: Store, logger: Logger): StorageSums {
  const existing = storageSumsByStore.get(store);
  if (existing) return existing;
  const sums = new StorageSums();
  storageSumsByStore.set(store, sums);
  // Changed here (after the commit): forgotten here at once, and told to the other replicas.
  store.onRepoContentsChanged((repoKey) => {
    sums.forget(repoKey);
    store.db.notify(REPO_CONTENTS_CHANGED, String(repoKey)).catch((error: unknown) => {
      logger.log("error", "announcing a repository's content change failed", { error });
    });
  });
  // Changed on another replica (PostgreSQL; on SQLite this channel only carries this process's own).
  store.db
    .listen(REPO_CONTENTS_CHANGED, (payload) => sums.forget(Number(payload)))
    .catch((error: unknown) => {
      logger.log("error", "listening for repositories' content changes failed", { error });
    });
  return sums;
}

/** A revision resolved to a commit; `ref` is the full ref name when the revision named one. */
/**
 * A ref's commit as read together with the repository's row (find()'s `ref`; undefined: the ref did not
 * exist then): resolve() takes it instead of a second query. Only for the repository it was read with.
 */
export interface KnownRef {
  repoKey: number;
  /** The full ref name (`refs/heads/main`). */
  name: string;
  commitOid: string | undefined;
}

export interface ResolvedRevision {
  commitOid: string;
  ref?: string;
}

/**
 * Validates `owner/name`. With `legacy`, a single-segment id (`gpt2`) is accepted too: the public hub's
 * canonical models from before namespaces, which only the site creates (the admin command); its owner is "",
 * so only site administrators may write to it.
 */
export function parseRepoId(
  id: unknown,
  options: { legacy?: boolean } = {},
): { id: string; owner: string; name: string } {
  if (typeof id !== "string") throw new InvalidInputError("A repository id is required.");
  const parts = id.split("/");
  if (options.legacy && parts.length === 1 && isValidIdPart(parts[0]!)) return { id, owner: "", name: id };
  if (parts.length !== 2 || !parts.every(isValidIdPart)) {
    throw new InvalidInputError(
      `Invalid repository id ${JSON.stringify(id.slice(0, 200))}: expected "owner/name" with letters, digits, "-", "_" and "." (no "..", at most 96 characters each).`,
    );
  }
  return { id, owner: parts[0]!, name: parts[1]! };
}

/** Repositories: creation, lookup, revisions, files and commits, over the store and the blob store. */
export function createRepoService({
  store,
  blobs,
  now = () => new Date(),
  onFilesRecorded,
  onMainMoved,
  events,
  audit,
  logger = silentLogger,
}: RepoServiceDeps) {
  const storageSums = storageSumsOf(store, logger);
  const recorded = (repo: RepoRecord, files: readonly FileRecord[], ref?: string) => {
    if (files.length > 0) onFilesRecorded?.(repo, files, ref);
  };
  /** What follows main's move: the card derived from it, then whoever listens (onMainMoved). */
  async function mainMoved(repo: RepoRecord, commitOid: string): Promise<void> {
    await service.derive(repo, commitOid);
    await onMainMoved?.(repo, commitOid);
  }
  /** Stores small content (inline commit files, initial files) and describes it as a regular git blob. */
  async function putRegular(path: string, content: Uint8Array): Promise<FileRecord> {
    const info = await putBlob(Readable.from([content]), { size: content.byteLength });
    return { path, blobOid: gitBlobId(content), sha256: info.sha256, size: info.size, lfs: false };
  }

  async function putBlob(source: AsyncIterable<Uint8Array>, expected: { sha256?: string; size?: number }) {
    try {
      return await blobs.put(source, expected);
    } catch (error) {
      if (error instanceof StorageFullError) throw new InsufficientStorageError(error.message);
      throw error;
    }
  }

  function lfsFile(path: string, sha256: string, size: number): FileRecord {
    return { path, blobOid: gitBlobId(Buffer.from(lfsPointerText(sha256, size))), sha256, size, lfs: true };
  }

  /** Queues a webhook event in `tx`: delivered only if the transaction commits (webhooks/hub-events.ts). */
  async function emit(tx: StoreTransaction, repo: RepoRecord, event: Omit<HubEvent, "repo">): Promise<void> {
    if (audit) for (const entry of repoAuditEntries(repo, event)) await audit.record(tx, entry);
    if (!events) return;
    await events.record(tx, { ...event, repo: await eventRepo(tx, repo) });
  }

  /** A ref created, moved or deleted, as webhooks are told of it. */
  const refMoved = (ref: string, oldSha: string | null, newSha: string | null): Omit<HubEvent, "repo"> => ({
    scope: "repo.content",
    action: "update",
    updatedRefs: [{ ref, oldSha, newSha }],
  });

  /** Points a new branch or tag at `commitOid` (under the repository's lock): ConflictError if it exists. */
  async function createRef(repo: RepoRecord, ref: string, commitOid: string): Promise<void> {
    await store.writeTransaction(async (tx) => {
      await tx.lock(repoLock(repo.key));
      if (await tx.repos.ref(repo.key, ref)) throw new ConflictError(`Reference ${ref} already exists.`);
      await tx.repos.setRef(repo.key, ref, commitOid);
      await emit(tx, repo, refMoved(ref, null, commitOid));
    });
  }

  /** Deletes a branch or tag (RevisionNotFoundError naming `name` when there is none). */
  async function deleteRef(repo: RepoRecord, ref: string, name: string): Promise<void> {
    await store.writeTransaction(async (tx) => {
      await tx.lock(repoLock(repo.key));
      const previous = await tx.repos.ref(repo.key, ref);
      if (!previous || !(await tx.repos.deleteRef(repo.key, ref))) throw new RevisionNotFoundError(name);
      await emit(tx, repo, refMoved(ref, previous, null));
    });
  }

  /** A commit's events: the ref it moved, and the pull request it opened (in the commit's transaction). */
  async function emitCommit(
    tx: StoreTransaction,
    repo: RepoRecord,
    request: {
      ref: string;
      title: string;
      author: string;
      createPr?: boolean;
      merges?: { num: number };
    },
    committed: CommitResult & { parent: string | null },
  ): Promise<void> {
    await emit(
      tx,
      repo,
      refMoved(committed.ref, request.createPr ? null : committed.parent, committed.commit.oid),
    );
    const merged = request.merges
      ? await tx.discussions.inCommit.get(repo.key, request.merges.num)
      : undefined;
    if (merged) {
      await emit(tx, repo, {
        scope: "discussion",
        action: "update",
        discussion: {
          num: merged.num,
          title: merged.title,
          status: "merged",
          isPullRequest: true,
          author: merged.author,
          base: merged.targetRef,
        },
      });
    }
    if (request.createPr && committed.pullRequest !== undefined) {
      await emit(tx, repo, {
        scope: "discussion",
        action: "create",
        discussion: {
          num: committed.pullRequest,
          title: request.title,
          status: "open",
          isPullRequest: true,
          author: request.author,
          base: request.ref,
        },
      });
    }
  }

  const service = {
    blobs,
    putRegular,
    putBlob,
    lfsFile,

    /** The repository of a key (queued background work names repositories by key). */
    byKey(key: number): Promise<RepoRecord | undefined> {
      return store.repos.byKey(key);
    },

    /** The repository, or the one a former id now redirects to (`moved`), or undefined. */
    /**
     * The repository `id` names (or the one a former id now leads to: `moved`). With `ref`, that ref's commit
     * is read in the same query (`knownRef`), for resolve() to use instead of reading it again.
     */
    async find(
      type: RepoType,
      id: string,
      ref?: string,
    ): Promise<{ repo: RepoRecord; moved: boolean; knownRef?: KnownRef } | undefined> {
      if (ref === undefined) {
        const repo = await store.repos.get(type, id);
        if (repo) return { repo, moved: false };
      } else {
        const found = await store.repos.getWithRef(type, id, ref);
        if (found) {
          const knownRef = { repoKey: found.repo.key, name: ref, commitOid: found.refCommitOid };
          return { repo: found.repo, moved: false, knownRef };
        }
      }
      const moved = await store.repos.redirected(type, id);
      return moved ? { repo: moved, moved: true } : undefined;
    },

    async create(request: {
      type: RepoType;
      id: string;
      private: boolean;
      gated?: Gated;
      author: string;
      /**
       * Files of the initial commit (a space's README, those a client sends at creation); one named
       * .gitattributes replaces the default.
       */
      files?: { path: string; content: string | Uint8Array }[];
      /** A single-segment legacy model id (`gpt2`) is allowed: the admin command creates those. */
      legacy?: boolean;
    }): Promise<RepoRecord> {
      const { id, owner } = parseRepoId(request.id, { legacy: request.legacy && request.type === "model" });
      const contents = new Map<string, string | Uint8Array>([[".gitattributes", DEFAULT_GITATTRIBUTES]]);
      for (const file of request.files ?? []) contents.set(file.path, file.content);
      const files = await Promise.all(
        [...contents].map(([path, content]) =>
          putRegular(path, typeof content === "string" ? Buffer.from(content) : content),
        ),
      );
      const stamp = now();
      const inserted = store.writeTransaction(async (tx) => {
        const existing =
          (await tx.repos.get(request.type, id))?.id ??
          (request.type === "model" ? (await tx.models.get(id))?.id : undefined);
        if (existing) throw new RepoExistsError(request.type, existing);
        const repo = await tx.repos.insert({
          type: request.type,
          id,
          owner,
          private: request.private,
          gated: request.gated ?? false,
          now: stamp.toISOString(),
        });
        if (repo.type === "model") {
          await tx.models.upsert({
            id,
            tags: [],
            private: repo.private,
            gated: repo.gated,
            createdAt: repo.createdAt,
            lastModified: repo.lastModified,
          });
        }
        await initialCommit(tx, repo, files, request.author, stamp);
        await emit(tx, repo, { scope: "repo", action: "create" });
        return repo;
      });
      const repo = await inserted.catch(async (error: unknown) => {
        // Two replicas creating one id at once both pass the check above (neither sees the other's
        // uncommitted row); the loser's insert then hits the unique constraint: the same 409 as the check's.
        if (!isUniqueViolation(error)) throw error;
        const winner = await store.repos.get(request.type, id);
        throw winner ? new RepoExistsError(request.type, winner.id) : error;
      });
      recorded(repo, files);
      // A space's card (its SDK) is indexed from the start; a model's row keeps its catalogue facts unless
      // it was created with files of its own (a README with a licence, a config).
      if (repo.type !== "model" || (request.files?.length ?? 0) > 0) {
        const main = await store.repos.ref(repo.key, branchRef("main"));
        if (main) await service.derive(repo, main);
      }
      return repo;
    },

    /**
     * Gives an existing catalogue model (a `models` row without files) its repository: one commit holding
     * `.gitattributes` and the given files. The row keeps the catalogue's facts (no derivation).
     */
    async adoptModel(
      modelId: string,
      files: { path: string; content: Uint8Array }[],
      options: { private: boolean; gated: Gated; createdAt: string; title: string },
    ): Promise<RepoRecord | undefined> {
      const { id, owner } = parseRepoId(modelId);
      const stored = [
        await putRegular(".gitattributes", Buffer.from(DEFAULT_GITATTRIBUTES)),
        ...(await Promise.all(
          files.map(async (file) => {
            if (file.content.byteLength <= LFS_SIZE_THRESHOLD && !file.path.endsWith(".gguf")) {
              return putRegular(file.path, file.content);
            }
            const info = await putBlob(Readable.from([file.content]), { size: file.content.byteLength });
            return lfsFile(file.path, info.sha256, info.size);
          }),
        )),
      ];
      const created = new Date(options.createdAt);
      return store
        .writeTransaction(async (tx) => {
          // Replicas starting at once on one PostgreSQL all seed: the lock makes the second wait and then see
          // the first one's repository (SQLite's write lock already does this).
          await tx.lock(`adopt:model:${id.toLowerCase()}`);
          const model = await tx.models.get(id);
          if ((await tx.repos.get("model", id)) || !model) return undefined;
          const repo = await tx.repos.insert({
            type: "model",
            id: model.id,
            owner,
            private: options.private,
            gated: options.gated,
            now: created.toISOString(),
          });
          await initialCommit(tx, repo, stored, owner, created, { title: options.title });
          return repo;
        })
        .then((repo) => {
          if (repo) recorded(repo, stored);
          return repo;
        });
    },

    /**
     * Creates the local copy of an upstream repository (a mirror: `mirrorOf` is upstream's base URL) holding
     * one upstream commit under its own id, main pointing at it; a model gets its `models` row (upstream's
     * facts in `model`, the card and config derived later). Returns the existing repository when another
     * request (or replica) created it first.
     */
    async createMirrored(
      request: {
        type: RepoType;
        id: string;
        private: boolean;
        gated: Gated;
        mirrorOf: string;
        /** The id the repository was asked by when upstream answers under another (a renamed repository). */
        askedAs?: string;
        /** What upstream says of a model that its files here may not (safetensors, gguf summaries, dates). */
        model?: { createdAt?: string; lastModified?: string; safetensors?: unknown; gguf?: unknown };
      },
      files: readonly FileRecord[],
      commit: Omit<CommitRecord, "tree">,
    ): Promise<RepoRecord> {
      const { id, owner } = parseRepoId(request.id, { legacy: request.type === "model" });
      const stamp = now().toISOString();
      const created = store.writeTransaction(async (tx) => {
        await tx.lock(`mirror:${request.type}:${id.toLowerCase()}`);
        const existing = await tx.repos.get(request.type, id);
        if (existing) {
          if (request.askedAs) await tx.repos.addRedirect(request.type, request.askedAs, existing.key);
          return existing;
        }
        const repo = await tx.repos.insert({
          type: request.type,
          id,
          owner,
          private: request.private,
          gated: request.gated,
          now: stamp,
          mirrorOf: request.mirrorOf,
        });
        if (repo.type === "model") {
          // A catalogue record of the same id (a model without files) gives way: the mirror holds its files.
          await tx.models.upsert({
            id,
            tags: [],
            private: repo.private,
            gated: repo.gated,
            createdAt: request.model?.createdAt ?? stamp,
            lastModified: request.model?.lastModified ?? stamp,
            ...(request.model?.safetensors ? { safetensors: request.model.safetensors as never } : {}),
            ...(request.model?.gguf ? { gguf: request.model.gguf as never } : {}),
          });
        }
        await importedCommit(tx, repo, files, commit);
        await tx.repos.setRef(repo.key, branchRef("main"), commit.oid);
        if (request.askedAs) await tx.repos.addRedirect(request.type, request.askedAs, repo.key);
        return repo;
      });
      const repo = await created.catch(async (error: unknown) => {
        if (!isUniqueViolation(error)) throw error;
        const winner = await store.repos.get(request.type, id);
        if (!winner) throw error;
        return winner;
      });
      recorded(repo, files);
      return repo;
    },

    /** Makes another id (one upstream answers under a new name) lead to a mirrored repository. */
    async aliasMirrored(repo: RepoRecord, askedAs: string): Promise<void> {
      await store.writeTransaction((tx) => tx.repos.addRedirect(repo.type, askedAs, repo.key));
    },

    /** Records an upstream commit of a mirrored repository under its own id (importedCommit); moves no ref. */
    async importCommit(
      repo: RepoRecord,
      files: readonly FileRecord[],
      commit: Omit<CommitRecord, "tree">,
    ): Promise<{ commit: CommitRecord; folderTrees: Map<string, string> }> {
      const imported = await store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        return importedCommit(tx, repo, files, commit);
      });
      recorded(repo, files);
      return imported;
    },

    /**
     * Makes a mirrored repository's branches and tags (and pull-request refs) those upstream lists: moved,
     * added, and removed when upstream no longer has them. Returns the names that changed.
     */
    async mirrorRefs(
      repo: RepoRecord,
      refs: readonly { name: string; commitOid: string }[],
    ): Promise<string[]> {
      return store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        const changed: string[] = [];
        const wanted = new Map(refs.map((ref) => [ref.name, ref.commitOid]));
        for (const local of await tx.repos.refs(repo.key)) {
          if (!wanted.has(local.name)) {
            await tx.repos.deleteRef(repo.key, local.name);
            changed.push(local.name);
          } else if (wanted.get(local.name) === local.commitOid) wanted.delete(local.name);
        }
        for (const [name, commitOid] of wanted) {
          await tx.repos.setRef(repo.key, name, commitOid);
          changed.push(name);
        }
        if (changed.length > 0) await tx.repos.touch(repo.key, now().toISOString());
        return changed;
      });
    },

    async delete(repo: RepoRecord): Promise<void> {
      await store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        await emit(tx, repo, { scope: "repo", action: "delete" });
        await tx.repos.delete(repo.key);
        if (repo.type === "model") await tx.models.delete(repo.id);
      });
    },

    /**
     * Removes a demo copy's repository so that a mirror brings the real model under its id: the catalogue
     * record (the `models` row and its provider mappings) stays, and the mirrored repository takes it over.
     */
    async evictDemoCopy(repo: RepoRecord): Promise<void> {
      await store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        await emit(tx, repo, { scope: "repo", action: "delete" });
        await tx.repos.delete(repo.key);
      });
    },

    async move(repo: RepoRecord, to: string): Promise<RepoRecord> {
      const target = parseRepoId(to);
      const moved = store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        if (
          (await tx.repos.get(repo.type, target.id)) ||
          (repo.type === "model" && (await tx.models.get(target.id)))
        ) {
          throw new ConflictError(`A ${repo.type} repository called ${target.id} already exists.`);
        }
        await tx.repos.move(repo, target);
        if (repo.type === "model") await tx.repos.renameModelRow(repo.id, target.id);
        const renamed = (await tx.repos.byKey(repo.key))!;
        await emit(tx, renamed, { scope: "repo", action: "move", updatedConfig: { from: repo.id } });
        return renamed;
      });
      return moved.catch((error: unknown) => {
        // Another replica created or moved a repository to that id since the check above.
        if (!isUniqueViolation(error)) throw error;
        throw new ConflictError(`A ${repo.type} repository called ${target.id} already exists.`);
      });
    },

    async updateSettings(
      repo: RepoRecord,
      settings: { private?: boolean; gated?: Gated },
    ): Promise<RepoRecord> {
      return store.writeTransaction(async (tx) => {
        const next = {
          private: settings.private ?? repo.private,
          gated: settings.gated ?? repo.gated,
        };
        await tx.repos.setSettings(repo.key, next);
        const updated = (await tx.repos.byKey(repo.key))!;
        await tx.repos.syncModelRow(updated);
        const changed = Object.fromEntries(
          Object.entries(next).filter(([key, value]) => repo[key as keyof typeof next] !== value),
        );
        // Made private: told to those who may still read it (the event carries the new visibility).
        if (Object.keys(changed).length > 0) {
          await emit(tx, updated, { scope: "repo.config", action: "update", updatedConfig: changed });
        }
        return updated;
      });
    },

    /** A branch, tag, `refs/...` name or commit id (full or abbreviated), resolved; undefined when unknown. */
    async resolve(
      repo: RepoRecord,
      revision: string,
      known?: KnownRef,
    ): Promise<ResolvedRevision | undefined> {
      for (const ref of refCandidates(revision)) {
        const commitOid =
          known?.repoKey === repo.key && known.name === ref
            ? known.commitOid
            : await store.repos.ref(repo.key, ref);
        if (commitOid) return { commitOid, ref };
      }
      if (COMMIT_ID.test(revision) && (await store.repos.commit(repo.key, revision))) {
        return { commitOid: revision };
      }
      if (SHORT_COMMIT_ID.test(revision)) {
        // An abbreviated id names a commit only when no other commit shares it (as git resolves one).
        const [commitOid, other] = await store.repos.commitOidsWithPrefix(repo.key, revision, 2);
        if (commitOid && !other) return { commitOid };
      }
      return undefined;
    },

    async resolveOrThrow(repo: RepoRecord, revision: string, known?: KnownRef): Promise<ResolvedRevision> {
      const resolved = await service.resolve(repo, revision, known);
      if (!resolved) throw new RevisionNotFoundError(revision);
      return resolved;
    },

    async file(repo: RepoRecord, commitOid: string, path: string): Promise<FileRecord> {
      const file = await store.repos.file(repo.key, commitOid, path);
      if (!file) throw new EntryNotFoundError(path);
      return file;
    },

    /** A file at a commit, or undefined (file() when it must exist). */
    fileAt(repo: RepoRecord, commitOid: string, path: string): Promise<FileRecord | undefined> {
      return store.repos.file(repo.key, commitOid, path);
    },

    /** Every file of a commit. */
    files(repo: RepoRecord, commitOid: string): Promise<FileRecord[]> {
      return store.repos.files(repo.key, commitOid);
    },

    /** The bytes the repository's files take over all its commits (kept until they change: storage-sums.ts). */
    usedStorage(repo: RepoRecord): Promise<number> {
      return storageSums.read(repo.key, repo.lastModified, () => store.repos.usedStorage(repo.key));
    },

    /** Branches, tags and pull-request refs, with their commits. */
    refs(repo: RepoRecord) {
      return store.repos.refs(repo.key);
    },

    /** The commit a full ref name points at, or undefined. */
    refTarget(repo: RepoRecord, ref: string): Promise<string | undefined> {
      return store.repos.ref(repo.key, ref);
    },

    /** One commit of the repository, or undefined. */
    commitRecord(repo: RepoRecord, oid: string): Promise<CommitRecord | undefined> {
      return store.repos.commit(repo.key, oid);
    },

    /** A folder's entries at a commit (recursive: every file below it); undefined when there is no folder. */
    tree(repo: RepoRecord, commitOid: string, dir: string, recursive: boolean) {
      return listTree(store, repo, commitOid, dir, recursive);
    },

    /** The file or folder at a path of a commit, as a tree entry; undefined when there is none. */
    entryAt(repo: RepoRecord, commitOid: string, path: string) {
      return entryAt(store, repo, commitOid, path);
    },

    /** Tree entries with their last commit and security fields (`expand=true`). */
    expandEntries(repo: RepoRecord, commitOid: string, entries: TreeEntryView[]) {
      return expandEntries(store, repo, commitOid, entries);
    },

    /** Tree entries with the Xet hash of LFS files stored through Xet. */
    withXetHashes(repo: RepoRecord, entries: TreeEntryView[]) {
      return addXetHashes(store, repo, entries);
    },

    /** First-parent history from a commit, newest first, optionally of one path. */
    history(repo: RepoRecord, commitOid: string, options: Parameters<typeof historyPage>[3]) {
      return historyPage(store, repo, commitOid, options);
    },

    /** Whether some commit of the repository references this content (what its LFS downloads may serve). */
    holdsContent(repo: Pick<RepoRecord, "key">, sha256: string): Promise<boolean> {
      return store.repos.repoHoldsContent(repo.key, sha256);
    },

    /** Whether the blob store holds a content (sha256), and its size. */
    storedContent(sha256: string) {
      return blobs.head(sha256);
    },

    /**
     * Whether a mirrored repository's LFS content is here as that repository's own: fetched from upstream and
     * verified by the mirror, or carried by an imported bundle. Bytes another repository uploaded under the
     * same sha256 do not count (knowing a hash is never a capability: docs/security.md), so a mirror whose
     * upstream merely declares a local private file's sha256 gets nothing but an upstream fetch.
     */
    async mirroredContentHeld(sha256: string): Promise<boolean> {
      return (await store.mirror.content(sha256))?.stored === true;
    },

    /** A content's bytes `start..end` (inclusive) as a Node stream. */
    openContent(sha256: string, range: { start: number; end: number }) {
      return blobs.get(sha256, range);
    },

    /** A small content read whole as text; undefined when the blob store does not hold it. */
    async readText(file: Pick<FileRecord, "sha256" | "size">): Promise<string | undefined> {
      if (file.size === 0) return "";
      if (!(await blobs.head(file.sha256))) return undefined;
      return (await blobs.read(file.sha256, { start: 0, end: file.size - 1 })).toString("utf8");
    },

    /** A presigned URL of a content, when the blob store has them (an object store). */
    downloadUrl: blobs.downloadUrl
      ? (sha256: string, options: Parameters<NonNullable<BlobStore["downloadUrl"]>>[1]) =>
          blobs.downloadUrl!(sha256, options)
      : undefined,

    /** A content's path under the blob store's directory, when the store is one (DOWNLOAD_OFFLOAD). */
    blobRelativePath: blobs.relativePath
      ? (sha256: string): string => blobs.relativePath!(sha256)
      : undefined,

    /** A content's absolute path, when the blob store is a directory on this machine (file answers). */
    blobLocalPath: blobs.localPath ? (sha256: string): string => blobs.localPath!(sha256) : undefined,

    /** The LFS patterns of a commit's .gitattributes. */
    async lfsPatternsAt(repo: RepoRecord, commitOid: string): Promise<string[]> {
      const attributes = await store.repos.file(repo.key, commitOid, ".gitattributes");
      if (!attributes || attributes.lfs || attributes.size > 1024 * 1024) return [];
      const text = await blobs.read(attributes.sha256, { start: 0, end: attributes.size - 1 });
      return lfsPatterns(text.toString("utf8"));
    },

    /** The text of a commit's root `.gitignore`, when it has one the hub will read (not LFS, at most 1 MiB). */
    async gitignoreAt(repo: RepoRecord, commitOid: string): Promise<string | undefined> {
      const file = await store.repos.file(repo.key, commitOid, ".gitignore");
      if (!file || file.lfs || file.size > MAX_GITIGNORE_BYTES) return undefined;
      return service.readText(file);
    },

    /** Whether a file goes to LFS: large ones, binary ones (a NUL in the sample), and those .gitattributes names. */
    isLfsPath(path: string, size: number, sample: Uint8Array, patterns: readonly string[]): boolean {
      return size > LFS_SIZE_THRESHOLD || sample.includes(0) || matchesLfsPattern(path, patterns);
    },

    /**
     * Commits, then (for a model's main branch) derives the model page's data from the new files. The
     * derivation runs after the commit is durable: should it fail or the process die, the commit stands and
     * the next commit derives again.
     */
    async commit(
      repo: RepoRecord,
      request: Omit<Parameters<typeof applyCommit>[2], "now" | "operations"> & {
        operations: readonly CommitOperation[];
      },
    ): Promise<CommitResult> {
      // Pull requests are "discuss" access: a mirrored repository takes no commit of any kind.
      if (repo.mirrorOf) throw new ReadOnlyMirrorError(repo);
      const result = await applyCommit(store, repo, {
        ...request,
        now: now(),
        inTransaction: async (tx, committed) => {
          await emitCommit(tx, repo, request, committed);
          await request.inTransaction?.(tx, committed);
        },
      });
      recorded(
        repo,
        request.operations.flatMap((operation) =>
          operation.kind === "put" ? [{ ...operation.file, path: operation.path }] : [],
        ),
        result.ref,
      );
      if (result.ref === branchRef("main")) await mainMoved(repo, result.commit.oid);
      return result;
    },

    /**
     * Makes `files` the whole tree of a ref outside the branches (`refs/convert/parquet`, written by the hub
     * itself): one commit deleting what the ref held and adding the files. The ref is created first, at a new
     * root commit with no files, when it does not exist.
     */
    async replaceRefTree(
      repo: RepoRecord,
      ref: string,
      files: readonly FileRecord[],
      commit: { title: string; author: string },
    ): Promise<CommitResult> {
      if (!ref.startsWith("refs/convert/")) throw new InvalidInputError(`${ref} is not a conversion ref.`);
      await store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        if (await tx.repos.ref(repo.key, ref)) return;
        const root = await initialCommit(tx, repo, [], commit.author, now(), { setRef: false });
        await tx.repos.setRef(repo.key, ref, root.oid);
      });
      const head = (await store.repos.ref(repo.key, ref))!;
      const existing = (await service.tree(repo, head, "", false)) ?? [];
      const operations: CommitOperation[] = [
        ...existing.map(
          (entry): CommitOperation =>
            entry.type === "directory"
              ? { kind: "deleteFolder", path: entry.path }
              : { kind: "deleteFile", path: entry.path },
        ),
        ...files.map((file): CommitOperation => ({ kind: "put", path: file.path, file })),
      ];
      const result = await applyCommit(store, repo, {
        ref,
        parentCommit: head,
        title: commit.title,
        description: "",
        author: commit.author,
        operations,
        now: now(),
      });
      recorded(repo, files, ref);
      return result;
    },

    /** A model's page data, or a dataset's or space's card index (tags, SDK), from a commit's files. */
    async derive(repo: RepoRecord, commitOid: string): Promise<void> {
      let write: (tx: StoreTransaction) => Promise<void>;
      if (repo.type === "model") {
        const derived = await deriveModel(blobs, await store.repos.files(repo.key, commitOid));
        write = (tx) => tx.repos.setDerivedModelFields(repo.id, derived);
      } else {
        // A card is derived from the README alone: one path, not the whole file list of a large dataset.
        const readme = await store.repos.file(repo.key, commitOid, "README.md");
        const derived = await deriveRepoCard(blobs, repo.type, readme ? [readme] : []);
        write = (tx) => tx.repos.setDerivedCard(repo.key, derived);
      }
      // Only if main still points there: a newer commit derives its own.
      await store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        if ((await tx.repos.ref(repo.key, branchRef("main"))) === commitOid) await write(tx);
      });
    },

    /**
     * A new branch at `startingPoint` (main by default), or, `empty`, at a new root commit with no files (the
     * public hub's `emptyBranch`). An existing branch is a ConflictError unless `overwrite`: then it moves
     * there, or (neither a starting point nor `empty` given) stays as it is.
     */
    async createBranch(
      repo: RepoRecord,
      name: string,
      options: { startingPoint?: string; empty?: boolean; overwrite?: boolean; author: string },
    ): Promise<void> {
      if (repo.mirrorOf) throw new ReadOnlyMirrorError(repo);
      const ref = branchRef(parseRefName(name, "branch"));
      const from = options.empty
        ? undefined
        : (await service.resolveOrThrow(repo, options.startingPoint ?? "main")).commitOid;
      await store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        const previous = await tx.repos.ref(repo.key, ref);
        if (previous) {
          if (!options.overwrite) throw new ConflictError(`Reference ${ref} already exists.`);
          if (!options.empty && options.startingPoint === undefined) return;
        }
        const target =
          from ?? (await initialCommit(tx, repo, [], options.author, now(), { setRef: false })).oid;
        await tx.repos.setRef(repo.key, ref, target);
        await emit(tx, repo, refMoved(ref, previous ?? null, target));
      });
    },

    /**
     * Points a branch (or pull-request ref) that is at `from` (null: that does not exist) at `to`, a commit the
     * repository already has: what a git push of known commits does. ConflictError when the ref moved since.
     */
    async moveRef(repo: RepoRecord, ref: string, from: string | null, to: string): Promise<void> {
      if (repo.mirrorOf) throw new ReadOnlyMirrorError(repo);
      await store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        const previous = (await tx.repos.ref(repo.key, ref)) ?? null;
        if (previous !== from) {
          throw new ConflictError(
            `${ref} moved meanwhile (it is at ${previous ?? "nothing"} now): fetch, then push again.`,
          );
        }
        if (!(await tx.repos.commit(repo.key, to))) throw new RevisionNotFoundError(to);
        await tx.repos.setRef(repo.key, ref, to);
        if (ref.startsWith("refs/heads/")) await tx.repos.touch(repo.key, now().toISOString());
        await emit(tx, repo, refMoved(ref, from, to));
      });
      if (ref === branchRef("main")) await mainMoved(repo, to);
    },

    /** Squashes a branch's (or pull request's) history into one commit of its files (super-squash). */
    async squashHistory(repo: RepoRecord, ref: string, title: string, author: string): Promise<CommitRecord> {
      if (repo.mirrorOf) throw new ReadOnlyMirrorError(repo);
      return store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        const { head, squashed } = await squashedCommit(tx, repo, ref, { title, author, now: now() });
        await tx.repos.setRef(repo.key, ref, squashed.oid);
        if (ref.startsWith("refs/heads/")) await tx.repos.touch(repo.key, now().toISOString());
        await emit(tx, repo, refMoved(ref, head, squashed.oid));
        return squashed;
      });
    },

    /** The LFS objects the repository's history holds (list_lfs_files: lfs-files.ts). */
    lfsFiles(repo: RepoRecord): Promise<LfsFileView[]> {
      return listLfsFiles(store, repo);
    },

    /**
     * Deletes LFS objects from the repository for good (permanently_delete_lfs_files: lfs-files.ts), then
     * frees each one's bytes that no other repository, upload or Xet xorb still references. Bytes stored
     * within RECENT_BLOB_MS are left to blob GC: a commit of the same content may be on its way.
     */
    async deleteLfsFiles(
      repo: RepoRecord,
      sha256s: readonly string[],
      options: { rewriteHistory: boolean },
    ): Promise<LfsDeletion> {
      if (repo.mirrorOf) throw new ReadOnlyMirrorError(repo);
      const cutoff = Date.now() - RECENT_BLOB_MS;
      const deletion = await store.writeTransaction(async (tx) => {
        await tx.lock(repoLock(repo.key));
        const done = await deleteLfsFiles(tx, repo, sha256s, options);
        if (done.deleted.length === 0) return done;
        if (done.movedRefs.some(({ ref }) => ref.startsWith("refs/heads/"))) {
          await tx.repos.touch(repo.key, now().toISOString());
        }
        await audit?.record(tx, {
          action: "lfs.delete",
          namespace: repo.owner,
          targetType: "repo",
          target: `${repo.type}/${repo.id}`,
          details: {
            sha256: done.deleted.slice(0, 100),
            count: done.deleted.length,
            rewriteHistory: options.rewriteHistory,
            commitsRewritten: done.rewritten.size,
          },
        });
        if (done.movedRefs.length > 0) {
          await emit(tx, repo, { scope: "repo.content", action: "update", updatedRefs: done.movedRefs });
        }
        return done;
      });
      for (const sha256 of deletion.deleted) {
        if (await store.blobReferences.isReferenced(sha256)) continue;
        const info = await blobs.head(sha256);
        if (info?.modifiedAt !== undefined && info.modifiedAt < cutoff) {
          await blobs.delete(sha256, { unlessModifiedSince: cutoff });
        }
      }
      const main = deletion.movedRefs.find(({ ref }) => ref === branchRef("main"));
      if (main) await mainMoved(repo, main.newSha);
      return deletion;
    },

    async deleteBranch(repo: RepoRecord, name: string): Promise<void> {
      if (name === "main")
        throw new InvalidInputError("Cannot delete refs/heads/main: it is the default branch.");
      await deleteRef(repo, branchRef(name), name);
    },

    async createTag(repo: RepoRecord, name: string, revision: string): Promise<void> {
      // The revision first: a missing one is RevisionNotFound whatever the name (huggingface_hub's tests).
      const from = await service.resolveOrThrow(repo, revision);
      const tag = parseRefName(name, "tag");
      await createRef(repo, tagRef(tag), from.commitOid);
    },

    async deleteTag(repo: RepoRecord, name: string): Promise<void> {
      // RevisionNotFound, as for a branch: huggingface_hub's delete_tag raises RevisionNotFoundError on it.
      await deleteRef(repo, tagRef(name), name);
    },
  };
  return service;
}

export type RepoService = ReturnType<typeof createRepoService>;
