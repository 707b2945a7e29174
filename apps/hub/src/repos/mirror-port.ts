import type { Readable } from "node:stream";
import type { RepoActor } from "./repo-access.js";
import type { FileRecord, RepoRecord, RepoType } from "./repo-records.js";

/**
 * What the repository routes ask of the mirror of an upstream hub (mirror/, docs/decisions/mirror.md), declared
 * here so that the repos domain never reaches the mirror's tables: the mirror domain implements it, and the app
 * wires it only when UPSTREAM_URL is set. A mirrored repository is an ordinary local repository (flagged
 * `mirrorOf`) once looked up: every other route reads it as it reads any repository.
 */
export interface RepoMirror {
  /**
   * A repository that is not local, looked up upstream and materialized locally (its row, and the commit its
   * default branch names). Undefined when upstream has no such repository, or the mirror may not ask (a
   * local-only namespace, the policy): the caller answers RepoNotFound as for any unknown id. Throws the
   * mirror's errors when upstream cannot answer (unreachable, offline mode, refused).
   */
  lookup(type: RepoType, id: string, actor: RepoActor): Promise<RepoRecord | undefined>;
  /**
   * Makes sure `revision` (a branch, tag, `refs/...` name or commit id) of a mirrored repository is known
   * locally and fresh: a commit id is imported once and kept for ever; a name is re-resolved upstream once its
   * last check is older than the revision TTL. Unknown upstream: returns, and the caller's resolve answers
   * RevisionNotFound. Upstream unreachable: the last known commit stays (pull-through), nothing is asked
   * offline. Returns the repository as it now is when upstream changed its settings (gated, private), which
   * the caller must authorize again.
   */
  ensureRevision(repo: RepoRecord, revision: string): Promise<RepoRecord | undefined>;
  /**
   * A demo copy of a catalogue model (untouched since the hub made it) gives way to the real model: when
   * upstream has the model and the policy admits it, the copy's repository is removed and upstream's mirrored
   * under the id, which is returned. Undefined (the copy stays) for any other repository, and when upstream
   * does not have it, refuses it or cannot be reached; that answer is remembered for the revision TTL.
   */
  replaceDemoCopy?(repo: RepoRecord): Promise<RepoRecord | undefined>;
  /**
   * Bytes `range` (inclusive) of an LFS file of a mirrored repository whose content this hub does not hold
   * yet: fetched from upstream on this first read (one transfer however many ask at once), streamed while it
   * is stored, verified against the declared sha256 (a cut or wrong transfer errors the stream short of its
   * length, and nothing is kept). Throws the mirror's errors before any byte when it cannot (offline mode,
   * the file size cap, upstream refusing or unreachable). Until the content is here, the file has no Xet
   * headers: clients download it plain through `/resolve`, which is what fetches it (mirror/mirror-content.ts).
   */
  openMissingContent?(
    repo: RepoRecord,
    commitOid: string,
    file: Pick<FileRecord, "path" | "sha256" | "size">,
    range: { start: number; end: number },
  ): Promise<Readable>;
  /**
   * The same bytes as openMissingContent, as the body of an answer @hono/node-server sends to a socket: in a
   * few reused buffers, which only that writer allows (it hands each piece on before asking for the next).
   */
  openMissingBody?(
    repo: RepoRecord,
    commitOid: string,
    file: Pick<FileRecord, "path" | "sha256" | "size">,
    range: { start: number; end: number },
  ): Promise<ReadableStream<Uint8Array>>;
  /**
   * A read of mirrored LFS content this hub holds is starting (a cache hit): counted, remembered as the
   * content's latest read (least recently read is evicted first), and kept from eviction until the returned
   * release is called (when the response stream closes). mirror/mirror-observed.ts.
   */
  trackCachedRead?(repo: RepoRecord, file: Pick<FileRecord, "sha256" | "size">): () => void;
}
