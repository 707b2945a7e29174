import { ANONYMOUS } from "../auth/actor.js";
import { ForbiddenError, HubError } from "../errors.js";
import { type Logger, silentLogger } from "../logger.js";
import { gitBlobId } from "../repos/git-objects.js";
import type { RepoMirror } from "../repos/mirror-port.js";
import type { RepoActor } from "../repos/repo-access.js";
import type { CommitRecord, FileRecord, Gated, RepoRecord, RepoType } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import { branchRef, COMMIT_ID } from "../repos/revision.js";
import type { Store } from "../store/store.js";
import type { MirrorSettings } from "./mirror-config.js";
import type { MirrorPolicy } from "./mirror-policy.js";
import {
  MirrorOfflineError,
  type UpstreamClient,
  UpstreamStatusError,
  UpstreamUnavailableError,
} from "./upstream-client.js";

/**
 * The pull-through mirror (docs/decisions/mirror.md). A repository that is not local is looked up upstream and
 * materialized as a local repository flagged `mirrorOf`, holding upstream's commits under their own ids: each
 * revision asked for is imported once (its tree from upstream's recursive listing, its regular files fetched
 * and checked against their git blob ids, its LFS files recorded as upstream declares them, their bytes
 * fetched on first read by content-pull.ts). Branch and tag names are re-resolved upstream once their last
 * check is older than MIRROR_REVISION_TTL; a commit id never is. In offline mode nothing here touches the
 * network.
 */

/** Upstream's tree entry (`GET /api/{type}s/{id}/tree/{rev}?recursive=true`). */
interface UpstreamTreeEntry {
  type: "file" | "directory";
  path: string;
  oid: string;
  size: number;
  lfs?: { oid: string; size: number };
  xetHash?: string;
}

/** What upstream's repository info says that the mirror keeps (`GET /api/{type}s/{id}`). */
interface UpstreamRepoInfo {
  id: string;
  sha?: string;
  private?: boolean;
  gated?: Gated;
  cardData?: unknown;
  createdAt?: string;
  lastModified?: string;
  safetensors?: unknown;
  gguf?: unknown;
}

interface UpstreamCommit {
  id: string;
  title?: string;
  message?: string;
  authors?: { user?: string }[];
  date?: string;
}

interface UpstreamRef {
  ref: string;
  targetCommit: string;
}

/** Upstream's `GET /api/{type}s/{id}/refs`. */
interface UpstreamRefs {
  branches?: UpstreamRef[];
  tags?: UpstreamRef[];
}

/** Upstream refused to mirror a file or a repository's content in a way no retry fixes. */
export class MirrorIntegrityError extends HubError {
  constructor(message: string) {
    super(502, "mirror_integrity", message);
  }
}

export interface MirrorServiceDeps {
  store: Store;
  repos: RepoService;
  upstream: UpstreamClient;
  settings: MirrorSettings;
  policy: MirrorPolicy;
  logger?: Logger;
  now?: () => Date;
  /**
   * Whether repository `repoKey` is a demo copy of a catalogue model that nobody committed to since it was
   * made (catalogue/demo-copies-table.ts): such a copy gives way to upstream's model. Unset: none does.
   */
  isUntouchedDemoCopy?: (repoKey: number) => Promise<boolean>;
}

/** Repositories remembered as no demo copy (that never changes); beyond this many the memory starts over. */
const NOT_DEMO_COPIES_REMEMBERED = 10_000;

const URL_PREFIX: Record<RepoType, string> = { model: "", dataset: "datasets/", space: "spaces/" };
/** Regular files fetched at once while a revision is imported. */
const FETCH_PARALLELISM = 8;
/** A regular (non-LFS) file is at most this large upstream (the public hub refuses larger ones, 10 MB). */
const MAX_REGULAR_FILE = 64 * 1024 * 1024;

const gatedOf = (info: UpstreamRepoInfo): Gated =>
  info.gated === "auto" || info.gated === "manual" ? info.gated : false;
const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

export type MirrorService = ReturnType<typeof createMirrorService>;

export function createMirrorService(deps: MirrorServiceDeps) {
  const { store, repos, upstream, settings, policy } = deps;
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? (() => new Date());
  const offline = settings.mode === "offline";
  /** One materialization or import per key at a time in this process (others wait for it). */
  const inflight = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const running = inflight.get(key) as Promise<T> | undefined;
    if (running) return running;
    const started = work().finally(() => inflight.delete(key));
    inflight.set(key, started);
    return started;
  };

  const apiBase = (type: RepoType, id: string) => `/api/${type}s/${id}`;
  /** Demo copies' keys that upstream lacked or refused, and until when that answer holds. */
  const demoCopiesKept = new Map<number, number>();
  const notDemoCopies = new Set<number>();
  /** Ids whose demo copy gave way in this process: their catalogue record no longer keeps upstream out. */
  const yielded = new Set<string>();

  /** Fetches one regular file at a commit and checks it is the blob upstream lists. */
  async function fetchRegular(type: RepoType, id: string, commitOid: string, entry: UpstreamTreeEntry) {
    const bytes = await upstream.bytes(
      `/${URL_PREFIX[type]}${id}/resolve/${commitOid}/${encodePath(entry.path)}`,
      MAX_REGULAR_FILE,
    );
    const oid = gitBlobId(bytes);
    if (oid !== entry.oid) {
      throw new MirrorIntegrityError(
        `Upstream's ${entry.path} of ${URL_PREFIX[type]}${id}@${commitOid} is the git blob ${oid}, not ${entry.oid} as its tree lists: nothing was imported; the next request tries again.`,
      );
    }
    return repos.putRegular(entry.path, bytes);
  }

  /** Upstream's whole file listing at a commit (following its pages). */
  async function listTree(type: RepoType, id: string, commitOid: string): Promise<UpstreamTreeEntry[]> {
    const entries: UpstreamTreeEntry[] = [];
    let next: string | undefined = `${apiBase(type, id)}/tree/${commitOid}?recursive=true&expand=false`;
    while (next) {
      const page: { body: UpstreamTreeEntry[]; next: string | undefined } =
        await upstream.jsonPage<UpstreamTreeEntry[]>(next);
      entries.push(...page.body);
      next = page.next;
    }
    return entries;
  }

  /** The commit's metadata and first parent, from upstream's history listing. */
  async function commitMeta(
    type: RepoType,
    id: string,
    commitOid: string,
  ): Promise<Omit<CommitRecord, "tree">> {
    const listed = await upstream.json<UpstreamCommit[]>(`${apiBase(type, id)}/commits/${commitOid}?limit=2`);
    const head = listed[0];
    const title = head?.title ?? "";
    return {
      oid: commitOid,
      parents: listed[1] ? [listed[1].id] : [],
      author: head?.authors?.[0]?.user ?? "",
      title,
      message: head?.message ?? "",
      createdAt: head?.date ?? now().toISOString(),
    };
  }

  /**
   * Everything to record an upstream commit: its files (regular ones fetched and stored, LFS ones as declared)
   * and its metadata. Checks the folder tree ids computed here against upstream's (logged when they differ:
   * upstream may hold what this hub's trees cannot, such as executable files).
   */
  async function snapshotOf(type: RepoType, id: string, commitOid: string) {
    const [entries, meta] = await Promise.all([
      listTree(type, id, commitOid),
      commitMeta(type, id, commitOid),
    ]);
    const regular = entries.filter((entry) => entry.type === "file" && !entry.lfs);
    const files: FileRecord[] = [];
    for (let at = 0; at < regular.length; at += FETCH_PARALLELISM) {
      files.push(
        ...(await Promise.all(
          regular.slice(at, at + FETCH_PARALLELISM).map((entry) => fetchRegular(type, id, commitOid, entry)),
        )),
      );
    }
    const lfs = entries.filter((entry) => entry.type === "file" && entry.lfs);
    for (const entry of lfs) {
      files.push({
        path: entry.path,
        blobOid: entry.oid,
        sha256: entry.lfs!.oid,
        size: entry.lfs!.size,
        lfs: true,
      });
    }
    const folders = new Map(
      entries.filter((entry) => entry.type === "directory").map((entry) => [entry.path, entry.oid]),
    );
    return { files, meta, lfs, folders };
  }

  /** Records the LFS content a commit declares, and warns when a folder's tree id differs from upstream's. */
  async function afterImport(
    repo: RepoRecord,
    snapshot: Awaited<ReturnType<typeof snapshotOf>>,
    folderTrees: Map<string, string>,
  ) {
    for (const entry of snapshot.lfs) {
      await store.mirror.declareContent({
        sha256: entry.lfs!.oid,
        size: entry.lfs!.size,
        xetHash: entry.xetHash,
      });
    }
    const differing = [...snapshot.folders].filter(([path, oid]) => folderTrees.get(path) !== oid);
    if (differing.length > 0) {
      logger.log("warn", "mirror: folder tree ids differ from upstream's", {
        repo: `${URL_PREFIX[repo.type]}${repo.id}`,
        commit: snapshot.meta.oid,
        folders: differing.slice(0, 5).map(([path]) => path),
      });
    }
  }

  /** Imports an upstream commit into a mirrored repository (once per process at a time; kept for ever). */
  function importCommit(repo: RepoRecord, commitOid: string): Promise<void> {
    return once(`commit:${repo.key}:${commitOid}`, async () => {
      if (await repos.commitRecord(repo, commitOid)) return;
      const snapshot = await snapshotOf(repo.type, repo.id, commitOid);
      const { folderTrees } = await repos.importCommit(repo, snapshot.files, snapshot.meta);
      await afterImport(repo, snapshot, folderTrees);
    });
  }

  /**
   * Brings a mirrored repository's branches and tags in line with upstream's and marks them checked; returns
   * the names that moved. When main moved, its commit is imported and the model page (card, config) follows.
   * `asked`: upstream's refs and info when the caller has already asked for them.
   */
  function syncRefs(repo: RepoRecord, asked?: Promise<[UpstreamRefs, UpstreamRepoInfo]>): Promise<string[]> {
    return once(`refs:${repo.key}`, async () => {
      const [listed, info] = await (asked ??
        Promise.all([
          upstreamRefs(repo.type, repo.id),
          upstream.json<UpstreamRepoInfo>(apiBase(repo.type, repo.id)),
        ]));
      // Gating and visibility follow upstream's: a repository gated (or made private) there is here too.
      const settings = { private: info.private === true, gated: gatedOf(info) };
      const current = await repos.find(repo.type, repo.id);
      if (current && (current.repo.private !== settings.private || current.repo.gated !== settings.gated)) {
        await repos.updateSettings(current.repo, settings);
      }
      const refs = [...(listed.branches ?? []), ...(listed.tags ?? [])]
        .filter((ref) => COMMIT_ID.test(ref.targetCommit))
        .map((ref) => ({ name: ref.ref, commitOid: ref.targetCommit }));
      // Pull-request refs are the local hub's own (its discussions): upstream lists branches and tags only.
      const local = (await repos.refs(repo)).filter((ref) => ref.name.startsWith("refs/pr/"));
      const changed = await repos.mirrorRefs(repo, [...refs, ...local]);
      const stamp = now().toISOString();
      for (const ref of refs) await store.mirror.markRefChecked(repo.key, ref.name, stamp);
      const main = refs.find((ref) => ref.name === branchRef("main"));
      if (main && changed.includes(main.name)) {
        await importCommit(repo, main.commitOid);
        await repos.derive(repo, main.commitOid);
      }
      return changed;
    });
  }

  function upstreamRefs(type: RepoType, id: string): Promise<UpstreamRefs> {
    return upstream.json<UpstreamRefs>(`${apiBase(type, id)}/refs`);
  }

  /** Whether a ref's last check upstream is recent enough to be served without asking again. */
  async function isFresh(repo: RepoRecord, ref: string): Promise<boolean> {
    const checked = await store.mirror.refCheckedAt(repo.key, ref);
    return checked !== undefined && now().getTime() - Date.parse(checked) < settings.revisionTtlMs;
  }

  /** The local copy of upstream's repository, created from its info and main's commit. */
  async function materialize(type: RepoType, id: string): Promise<RepoRecord | undefined> {
    let info: UpstreamRepoInfo;
    try {
      info = await upstream.json<UpstreamRepoInfo>(apiBase(type, id));
    } catch (error) {
      // Upstream answers 401 for a repository it will not show to this credential, as for one that is not there.
      if (error instanceof UpstreamStatusError && [401, 404].includes(error.upstreamStatus)) return undefined;
      throw error;
    }
    if (!info.sha || !COMMIT_ID.test(info.sha)) return undefined;
    const refusal = policy.licenseRefusal(info.cardData);
    if (refusal) {
      throw new ForbiddenError(
        `${URL_PREFIX[type]}${id} is not mirrored from ${upstream.baseUrl}: ${refusal}.`,
      );
    }
    // Upstream's canonical id (its casing; its new name for a renamed or legacy id such as `squad`), the id
    // asked for leading to it as a moved repository's former id does.
    const localId = info.id && /^[\w.-]+\/[\w.-]+$/.test(info.id) ? info.id : id;
    const renamed = localId.toLowerCase() !== id.toLowerCase();
    if (renamed) {
      // Upstream's new name refused here, or a local repository's: the old name does not lead around that.
      if (policy.refusal(type, localId) !== undefined) return undefined;
      const existing = (await repos.find(type, localId))?.repo;
      if (existing && !existing.mirrorOf) return undefined;
      if (existing) {
        await repos.aliasMirrored(existing, id);
        return existing;
      }
    }
    // The refs are asked for beside the snapshot, not after the import: one round trip upstream less before
    // a first read's bytes start (bench:mirror's time to first byte), and the info just read is not asked again.
    const refsAsked = upstreamRefs(type, localId);
    refsAsked.catch(() => {});
    const snapshot = await snapshotOf(type, localId, info.sha);
    const repo = await repos.createMirrored(
      {
        type,
        id: localId,
        private: info.private === true,
        gated: gatedOf(info),
        mirrorOf: upstream.baseUrl,
        ...(renamed ? { askedAs: id } : {}),
        model: {
          createdAt: info.createdAt,
          lastModified: info.lastModified,
          safetensors: info.safetensors,
          gguf: info.gguf,
        },
      },
      snapshot.files,
      snapshot.meta,
    );
    const { folderTrees } = await repos.importCommit(repo, snapshot.files, snapshot.meta);
    await afterImport(repo, snapshot, folderTrees);
    await store.mirror.markRefChecked(repo.key, branchRef("main"), now().toISOString());
    await repos.derive(repo, info.sha);
    // Branches and tags besides main: listed now (so refs show them), their commits imported when asked for.
    await syncRefs(
      repo,
      refsAsked.then((listed) => [listed, info]),
    ).catch((error: unknown) =>
      logger.log("warn", "mirror: refs not listed", {
        repo: `${URL_PREFIX[type]}${id}`,
        error: String(error),
      }),
    );
    logger.log("info", "mirror: repository materialized", {
      repo: `${URL_PREFIX[type]}${localId}`,
      commit: info.sha,
    });
    return repo;
  }

  const mirror: RepoMirror = {
    async lookup(type: RepoType, id: string, _actor: RepoActor): Promise<RepoRecord | undefined> {
      if (policy.refusal(type, id) !== undefined) return undefined;
      // A catalogue record (a model without files) is local: it wins over upstream's repository; unless its demo
      // copy gave way here (a materialization that failed after that is retried).
      if (type === "model" && !yielded.has(id.toLowerCase()) && (await store.models.get(id)))
        return undefined;
      if (offline) throw new MirrorOfflineError(`The ${type} ${id}`, "RepoNotFound");
      return once(`repo:${type}:${id.toLowerCase()}`, () => materialize(type, id));
    },

    async replaceDemoCopy(repo: RepoRecord): Promise<RepoRecord | undefined> {
      if (offline || !deps.isUntouchedDemoCopy || notDemoCopies.has(repo.key)) return undefined;
      if (policy.refusal("model", repo.id) !== undefined) return undefined;
      if ((demoCopiesKept.get(repo.key) ?? 0) > now().getTime()) return undefined;
      if (!(await deps.isUntouchedDemoCopy(repo.key))) {
        if (notDemoCopies.size >= NOT_DEMO_COPIES_REMEMBERED) notDemoCopies.clear();
        notDemoCopies.add(repo.key);
        return undefined;
      }
      return once(`demo:${repo.key}`, async () => {
        const keep = (reason: string) => {
          demoCopiesKept.set(repo.key, now().getTime() + settings.revisionTtlMs);
          logger.log("info", "mirror: a demo copy stays", { repo: repo.id, reason });
          return undefined;
        };
        let info: UpstreamRepoInfo;
        try {
          info = await upstream.json<UpstreamRepoInfo>(apiBase("model", repo.id));
        } catch (error) {
          // Upstream without the model (or not showing it to this credential), or out of reach: the copy serves.
          return keep(String(error));
        }
        if (!info.sha || !COMMIT_ID.test(info.sha)) return keep("upstream lists no commit");
        if (info.id && info.id.toLowerCase() !== repo.id.toLowerCase())
          return keep(`upstream names it ${info.id}`);
        const refusal = policy.licenseRefusal(info.cardData);
        if (refusal) return keep(refusal);
        yielded.add(repo.id.toLowerCase());
        await repos.evictDemoCopy(repo);
        logger.log("info", "mirror: a demo copy gave way to upstream's model", { repo: repo.id });
        return materialize("model", repo.id);
      });
    },

    async ensureRevision(repo: RepoRecord, revision: string): Promise<RepoRecord | undefined> {
      if (!repo.mirrorOf) return undefined;
      // After asking upstream, the repository as it now is (upstream may have gated it or made it private).
      return (await ensureKnown(repo, revision)) ? (await repos.find(repo.type, repo.id))?.repo : undefined;
    },
  };

  /** ensureRevision's work; true when upstream's refs and settings were read. */
  async function ensureKnown(repo: RepoRecord, revision: string): Promise<boolean> {
    const what = `Revision ${revision} of ${URL_PREFIX[repo.type]}${repo.id}`;
    if (COMMIT_ID.test(revision)) {
      if (await repos.commitRecord(repo, revision)) return false;
      if (offline) throw new MirrorOfflineError(what, "RevisionNotFound");
      try {
        await importCommit(repo, revision);
      } catch (error) {
        // Not a commit of upstream's repository: the caller's resolve answers RevisionNotFound.
        if (error instanceof UpstreamStatusError && error.upstreamStatus === 404) return false;
        throw error;
      }
      return false;
    }
    const known = await repos.resolve(repo, revision);
    const fresh = known?.ref !== undefined && (await isFresh(repo, known.ref));
    let synced = false;
    if (!fresh && !offline) {
      try {
        await syncRefs(repo);
        synced = true;
      } catch (error) {
        // Upstream down or failing: the last known commit is served; with none, the caller hears why.
        const transient =
          error instanceof UpstreamUnavailableError ||
          (error instanceof UpstreamStatusError && error.upstreamStatus !== 404);
        if (!known || !transient) throw error;
        logger.log("warn", "mirror: serving the last known commit", {
          revision: what,
          error: error.message,
        });
      }
    }
    const resolved = fresh ? known : await repos.resolve(repo, revision);
    if (!resolved || (await repos.commitRecord(repo, resolved.commitOid))) return synced;
    if (offline) throw new MirrorOfflineError(what, "RevisionNotFound");
    await importCommit(repo, resolved.commitOid);
    return synced;
  }

  return {
    ...mirror,
    /** Upstream's base URL. */
    upstreamUrl: upstream.baseUrl,
    /** Imports a revision of a mirrored repository (the admin's prefetch: mirror:pull). */
    async pull(type: RepoType, id: string, revision = "main"): Promise<RepoRecord> {
      const found = (await repos.find(type, id))?.repo ?? (await mirror.lookup(type, id, ANONYMOUS));
      if (!found)
        throw new UpstreamStatusError(404, upstream.host, apiBase(type, id), "no such repository upstream");
      await mirror.ensureRevision(found, revision);
      return found;
    },
  };
}
