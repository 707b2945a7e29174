import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { InvalidInputError, RepoNotFoundError } from "../errors.js";
import { createCasService } from "../lfs-xet/cas-service.js";
import { XetSigner } from "../lfs-xet/xet-tokens.js";
import type { RepoRecord, RepoType } from "../repos/repo-records.js";
import { createRepoService } from "../repos/repo-service.js";
import type { BlobStore } from "../storage/blob-store.js";
import type { Store } from "../store/store.js";
import { exportBundle, importBundle } from "./mirror-bundle.js";
import { createMirrorCache } from "./mirror-cache.js";

/**
 * The admin CLI's mirror commands (`npm run admin -w apps/hub -- mirror:...`): the cache (list, evict) and
 * the air-gapped transfer (export, import). `mirror:pull` goes through the same service as the hub's
 * pull-through (the caller hands it in: it needs the upstream settings).
 */

export const MIRROR_USAGE = `Mirror (UPSTREAM_URL; see "Mirror huggingface.co" in the README)
  mirror:pull <model|dataset|space>/<id> [--revision <r>]
                                               fetch a repository's revision (default main) and every file
                                               of it from upstream into the cache, as a first read would
  mirror:list                                  mirrored repositories, their refs and cached bytes
  mirror:evict [<type>/<id>] [--all]           drop cached file content (a repository's, or all of it);
                                               without arguments, evict down to MIRROR_MAX_CACHE_SIZE.
                                               The repositories stay listed; their files are fetched
                                               again on the next read (pull-through)
  mirror:export <file> <type>/<id>...          write mirrored repositories (history, refs, cached content,
                                               Xet chunks once) to a bundle for a hub with no network
  mirror:import <file>                         load a bundle: every hash is checked, then its repositories
                                               are created as mirrors (read-only, served offline)
`;

export interface MirrorTarget {
  type: RepoType;
  id: string;
}

const TYPE_WORDS: Record<string, RepoType> = {
  model: "model",
  models: "model",
  dataset: "dataset",
  datasets: "dataset",
  space: "space",
  spaces: "space",
};

/** `model/org/name`, `datasets/org/name`, or a bare `org/name` (a model). */
export function parseMirrorTarget(text: string): MirrorTarget {
  const parts = text.split("/");
  const type = TYPE_WORDS[parts[0]!.toLowerCase()];
  if (type && parts.length >= 2) return { type, id: parts.slice(1).join("/") };
  if (parts.length > 2 || parts.some((part) => part === "")) {
    throw new InvalidInputError(
      `"${text}" is not a repository: write <model|dataset|space>/<owner>/<name>, e.g. model/openai-community/gpt2.`,
    );
  }
  return { type: "model", id: text };
}

export interface MirrorPullReport {
  type: RepoType;
  id: string;
  revision: string;
  commit: string;
  files: number;
  /** Bytes fetched from upstream by this pull (content already cached costs nothing). */
  fetchedBytes: number;
  cachedBytes: number;
}

export interface MirrorCommandContext {
  store: Store;
  openBlobs?: () => Promise<BlobStore>;
  /** MIRROR_MAX_CACHE_SIZE, when a mirror is configured. */
  maxCacheBytes?: number;
  /** Prefetches a revision through the pull-through service; undefined without UPSTREAM_URL. */
  pull?: (target: MirrorTarget, revision: string) => Promise<MirrorPullReport>;
  publicUrl?: string;
}

const label = (repo: { type: RepoType; id: string }) => `${repo.type}/${repo.id}`;

async function mirroredRepo(store: Store, text: string): Promise<RepoRecord> {
  const target = parseMirrorTarget(text);
  const repo = await store.repos.get(target.type, target.id);
  if (!repo) throw new RepoNotFoundError(label(target));
  if (!repo.mirrorOf) {
    throw new InvalidInputError(
      `${label(repo)} is a local repository, not a mirror: the mirror commands leave it alone.`,
    );
  }
  return repo;
}

async function blobsOf(context: MirrorCommandContext): Promise<BlobStore> {
  if (!context.openBlobs) throw new InvalidInputError("This hub has no blob store.");
  return context.openBlobs();
}

function casOf(store: Store, blobs: BlobStore) {
  // Signing is for the URLs the CAS hands to clients; the commands hand none out.
  return createCasService({
    xet: store.xet,
    gc: store.xetGc,
    blobs,
    signer: new XetSigner(randomBytes(32)),
    casUrl: "",
  });
}

export async function runMirrorCommand(
  command: string,
  positionals: readonly string[],
  values: Record<string, string | boolean | undefined>,
  context: MirrorCommandContext,
): Promise<unknown> {
  const { store } = context;
  const arg = (index: number, what: string) => {
    const value = positionals[index];
    if (!value) throw new InvalidInputError(`Missing <${what}>.\n\n${MIRROR_USAGE}`);
    return value;
  };
  switch (command) {
    case "mirror:pull": {
      if (!context.pull) {
        throw new InvalidInputError(
          "mirror:pull needs an upstream: set UPSTREAM_URL (and MIRROR_MODE=pull-through).",
        );
      }
      const revision =
        typeof values.revision === "string" && values.revision !== "" ? values.revision : "main";
      return context.pull(parseMirrorTarget(arg(0, "type/id")), revision);
    }
    case "mirror:list": {
      const bytes = await store.mirror.cachedBytesByRepo();
      const repositories = [];
      for (const key of await store.mirror.mirroredRepoKeys()) {
        const repo = await store.repos.byKey(key);
        if (!repo) continue;
        const refs = Object.fromEntries(
          (await store.repos.refs(repo.key)).map((ref) => [ref.name, ref.commitOid]),
        );
        const cached = bytes.get(repo.key) ?? { bytes: 0, files: 0 };
        repositories.push({
          type: repo.type,
          id: repo.id,
          upstream: repo.mirrorOf,
          private: repo.private,
          gated: repo.gated,
          refs,
          cachedFiles: cached.files,
          cachedBytes: cached.bytes,
        });
      }
      const totals = await store.mirror.cacheTotals();
      return {
        cache: { ...totals, maxCacheBytes: context.maxCacheBytes ?? null },
        repositories,
      };
    }
    case "mirror:evict": {
      const cache = createMirrorCache({
        table: store.mirror,
        blobs: await blobsOf(context),
        maxBytes: context.maxCacheBytes,
        // This process serves nothing: a hub serving the content keeps reading an unlinked file, and its
        // next reader finds the content not stored and fetches it again.
        isReading: () => false,
      });
      if (values.all === true) {
        if (positionals.length > 0) throw new InvalidInputError("Give a repository or --all, not both.");
        return { evicted: "all", ...(await cache.evictEverything()) };
      }
      if (positionals[0]) {
        const repo = await mirroredRepo(store, positionals[0]);
        return { evicted: label(repo), ...(await cache.evictRepo(repo.key)) };
      }
      if (context.maxCacheBytes === undefined) {
        throw new InvalidInputError(
          "MIRROR_MAX_CACHE_SIZE is not set: name a repository (mirror:evict model/org/name) or use --all.",
        );
      }
      return { evicted: "least recently read", ...(await cache.enforce()) };
    }
    case "mirror:export": {
      const file = arg(0, "file");
      if (positionals.length < 2)
        throw new InvalidInputError(`Name the repositories to export.\n\n${MIRROR_USAGE}`);
      const repos = [];
      for (const text of positionals.slice(1)) repos.push(await mirroredRepo(store, text));
      const blobs = await blobsOf(context);
      // Written aside and renamed: a failed export never leaves a truncated bundle under the asked name.
      const partial = `${file}.partial`;
      try {
        const manifest = await exportBundle(
          { store, blobs, cas: casOf(store, blobs) },
          repos,
          createWriteStream(partial),
        );
        await rename(partial, file);
        return {
          file,
          bytes: (await stat(file)).size,
          repositories: manifest.repositories.map((repo) => ({
            type: repo.type,
            id: repo.id,
            commits: repo.commits.length,
            refs: repo.refs.length,
          })),
          contents: manifest.contents.length,
          xetFiles: manifest.xetFiles.length,
          xorbs: manifest.xorbs.length,
          // Not fetched here: the importing hub lists these files but cannot serve them. mirror:pull first.
          missing: manifest.missing,
        };
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    }
    case "mirror:import": {
      const file = arg(0, "file");
      const blobs = await blobsOf(context);
      return importBundle(
        { store, blobs, cas: casOf(store, blobs), repos: createRepoService({ store, blobs }) },
        createReadStream(file),
      );
    }
    default:
      throw new InvalidInputError(`Unknown command "${command}".\n\n${MIRROR_USAGE}`);
  }
}
