import type { RepoActor } from "./repo-access.js";
import type { RepoRecord, RepoType } from "./repo-records.js";

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
   * offline.
   */
  ensureRevision(repo: RepoRecord, revision: string): Promise<void>;
}
