import { createReadStream } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { ForbiddenError } from "../errors.js";
import type { CasService } from "../lfs-xet/cas-service.js";
import type { RepoRecord } from "../repos/repo-records.js";
import type { BlobStore, ByteRange } from "../storage/blob-store.js";
import { openTmpDir } from "../storage/tmp-dirs.js";
import {
  type ContentPullerOptions,
  createContentPuller,
  type DeclaredContent,
  type PullSource,
} from "./content-pull.js";
import type { MirrorPolicy } from "./mirror-policy.js";
import type { MirrorTable } from "./mirror-table.js";
import { MirrorOfflineError, type UpstreamClient } from "./upstream-client.js";
import { type CasGet, xetPullSource } from "./xet-pull.js";

const URL_PREFIX = { model: "", dataset: "datasets/", space: "spaces/" } as const;

export interface MirrorContentDeps {
  upstream: UpstreamClient;
  mode: "pull-through" | "offline";
  table: Pick<MirrorTable, "content" | "declareContent" | "markStored" | "xorbChunks" | "addXorbChunks">;
  blobs: BlobStore;
  /** The local Xet store: upstream's Xet files are pulled by reconstruction into it. Without it: plain. */
  cas?: Pick<CasService, "storeChunks" | "locateChunks" | "registerOwnFile" | "read">;
  /** Where transfers are written while they run: a directory of its own under the blob store's tmp root. */
  tmpDir: string;
  /** No byte from upstream for this long abandons a transfer (content-pull.ts; default 30 s). */
  idleTimeoutMs?: number;
  policy: Pick<MirrorPolicy, "fileRefusal">;
  /** Told about each upstream transfer's end: bytes and outcome (metrics, logs). */
  observe?: ContentPullerOptions["observe"];
  /** Makes room for `incoming` bytes (the cache's least-recently-read eviction), before a fetch. */
  makeRoom?: (incoming: number) => Promise<unknown>;
  now?: () => Date;
}

/** An LFS file of a mirrored repository, as the route has it. */
export interface MirroredFile {
  path: string;
  sha256: string;
  size: number;
}

/**
 * Ends a body when the transfer is abandoned (a stall): the upstream client's signal covers only the wait
 * for the headers, and a body nobody reads any more must not hold its connection.
 */
function abortBody(body: Readable, signal: AbortSignal): void {
  if (signal.aborted) {
    body.destroy(signal.reason as Error);
    return;
  }
  const abort = () => body.destroy(signal.reason as Error);
  signal.addEventListener("abort", abort, { once: true });
  // One signal serves every request of a Xet pull: each leaves it once its body is done.
  body.once("close", () => signal.removeEventListener("abort", abort));
}

/** GETs to upstream's Xet CAS through the upstream client (its timeouts and typed errors). */
export function upstreamCasGet(upstream: UpstreamClient): CasGet {
  return async (url, headers, signal) => {
    // The Xet token goes as the bearer whatever the CAS's origin (the public hub's is another host); the
    // client would put UPSTREAM_TOKEN on a same-origin call, so the token takes its place there.
    const bearer = /^Bearer (.+)$/.exec(headers.Authorization ?? "")?.[1];
    const { Authorization: _, ...rest } = headers;
    const answer = await upstream.request(url, {
      headers: bearer ? { ...rest, authorization: `Bearer ${bearer}` } : rest,
      signal,
      ...(bearer ? { token: bearer } : {}),
    });
    abortBody(answer.body, signal);
    return {
      json: () => answer.body.json(),
      body: () => answer.body,
    };
  };
}

/**
 * The LFS content of mirrored repositories that this hub does not hold yet, fetched on first read: through
 * the content puller (one transfer per content, streamed to every reader while it is stored, verified), by
 * Xet reconstruction when upstream declared a Xet hash for it and the hub has a Xet store, else as the plain
 * bytes of upstream's `/resolve` URL for the commit.
 */
export function createMirrorContent(deps: MirrorContentDeps) {
  const now = deps.now ?? (() => new Date());
  const casGet = upstreamCasGet(deps.upstream);
  const puller = createContentPuller({
    tmpDir: deps.tmpDir,
    idleTimeoutMs: deps.idleTimeoutMs,
    observe: deps.observe,
  });

  function plainSource(repo: RepoRecord, commitOid: string, file: MirroredFile): PullSource {
    const path = `/${URL_PREFIX[repo.type]}${repo.id}/resolve/${commitOid}/${file.path.split("/").map(encodeURIComponent).join("/")}`;
    return {
      async start(signal) {
        const answer = await deps.upstream.request(path, {
          signal,
          headers: { "accept-encoding": "identity" },
        });
        abortBody(answer.body, signal);
        return answer.body;
      },
      async keep(tmpPath, content) {
        // The blob store's own way in: a move where the store is on this disk (no second copy written), else an
        // upload (S3). The puller hashed every byte it wrote to `tmpPath` and they are the declared content, so
        // the store checks the size without reading the file again (bench/results/2026-11-29-mirror-2.md).
        if (deps.blobs.adopt) await deps.blobs.adopt(tmpPath, content, { hashedByCaller: true });
        else await deps.blobs.put(createReadStream(tmpPath, { highWaterMark: 1 << 20 }), content);
        await deps.table.markStored(content.sha256, now().toISOString());
      },
    };
  }

  function xetSource(
    repo: RepoRecord,
    commitOid: string,
    content: DeclaredContent & { xetHash: string },
    cas: NonNullable<MirrorContentDeps["cas"]>,
  ): PullSource {
    return xetPullSource(
      {
        cas,
        table: deps.table,
        readToken: (signal) =>
          deps.upstream.json<{ accessToken: string; casUrl: string }>(
            `/api/${repo.type}s/${repo.id}/xet-read-token/${commitOid}`,
            { signal },
          ),
        casGet,
      },
      { ...content, repoKey: repo.key },
      () => deps.table.markStored(content.sha256, now().toISOString()),
    );
  }

  /** The content to fetch and how: refusals first (offline, size cap), then Xet when upstream declared it. */
  async function transfer(repo: RepoRecord, commitOid: string, file: MirroredFile) {
    if (deps.mode === "offline") throw new MirrorOfflineError(`${repo.id}/${file.path}`);
    const refusal = deps.policy.fileRefusal(file.size);
    if (refusal) throw new ForbiddenError(`${repo.id}/${file.path} is not mirrored: ${refusal}.`);
    const declared = await deps.table.content(file.sha256);
    if (!declared) await deps.table.declareContent({ sha256: file.sha256, size: file.size });
    const content = { sha256: file.sha256, size: file.size };
    const xetHash = declared?.xetHash;
    // Called only when a transfer starts (not when one under way is joined).
    const source = (): PullSource => {
      void deps.makeRoom?.(file.size).catch(() => {});
      return xetHash && deps.cas
        ? xetSource(repo, commitOid, { ...content, xetHash }, deps.cas)
        : plainSource(repo, commitOid, file);
    };
    return { content, source };
  }

  return {
    /**
     * Bytes `range` of an LFS file of a mirrored repository whose content is not here: streamed while it is
     * fetched and stored. Refused: offline mode (MirrorOfflineError), over MIRROR_MAX_FILE_SIZE (403);
     * upstream's refusals and unreachability throw the upstream client's errors.
     */
    async open(repo: RepoRecord, commitOid: string, file: MirroredFile, range: ByteRange): Promise<Readable> {
      const { content, source } = await transfer(repo, commitOid, file);
      return puller.read(content, range, source);
    },

    /**
     * The same bytes as `open`, as an HTTP answer body for @hono/node-server's writer, in reused buffers
     * (content-pull.ts tailBody): only for an answer that writer sends to a socket.
     */
    async openBody(
      repo: RepoRecord,
      commitOid: string,
      file: MirroredFile,
      range: ByteRange,
    ): Promise<ReadableStream<Uint8Array>> {
      const { content, source } = await transfer(repo, commitOid, file);
      return puller.body(content, range, source);
    },

    /**
     * Fetches and stores a file's content without serving it (`mirror:pull`): resolves once it is stored,
     * rejects with why not (the same refusals and errors as `open`).
     */
    async fetch(repo: RepoRecord, commitOid: string, file: MirroredFile): Promise<void> {
      const { content, source } = await transfer(repo, commitOid, file);
      await puller.fetch(content, source);
    },

    /** Whether a transfer of this content is under way (the cache never evicts it). */
    isReading: (sha256: string) => puller.isReading(sha256),
  };
}

export type MirrorContent = ReturnType<typeof createMirrorContent>;

/**
 * The directory transfers are written to: this process's own under the blob directory's tmp root, which the
 * fs blob store shares (tmp-dirs.ts: a dead owner's leftovers are swept), on the same disk as the blobs.
 */
export function openPullDir(dataDir: string): Promise<string> {
  return openTmpDir(join(dataDir, "blobs", "tmp"));
}
