import { createHash } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { InvalidInputError } from "../errors.js";
import type { CasService } from "../lfs-xet/cas-service.js";
import { hashesEqual, hashToHex, hexToHash, loadXetHashing } from "../lfs-xet/hashes.js";
import type { XetFileRow } from "../lfs-xet/xet-records.js";
import { gitBlobId } from "../repos/git-objects.js";
import { lfsPointerText } from "../repos/lfs-pointer.js";
import type { CommitRecord, FileRecord, Gated, RepoRecord, RepoType } from "../repos/repo-records.js";
import { repoLock } from "../repos/repo-records.js";
import { parseRepoId, type RepoService } from "../repos/repo-service.js";
import { branchRef } from "../repos/revision.js";
import { draftOfFiles, type SealedNode, sealDraft } from "../repos/tree-draft.js";
import { gitTreeIdOf } from "../repos/tree-edit.js";
import { BlobMismatchError, type BlobStore } from "../storage/blob-store.js";
import type { Store } from "../store/store.js";

/**
 * `mirror:export` / `mirror:import`: mirrored repositories carried to a hub with no network as one tar
 * file. The tar holds `manifest.json` first (the repositories, their commits with their files, their refs,
 * and the content and Xet files those need), then each content kept as a blob once (`content/<sha256>`),
 * then each xorb once (`xorbs/<hash>`): Xet content travels as chunks, so two revisions of one model share
 * their unchanged chunks in the bundle as they do in the store. Import checks every hash before anything
 * becomes visible: each content's sha256 and size, each xorb's hash (the CAS's own upload check), each Xet
 * file's hash from its chunk hashes and its sha256 from its bytes, each commit's tree id from its files,
 * each regular file's git blob id from its bytes.
 */

export const BUNDLE_FORMAT = "modelhub-mirror-bundle";
export const BUNDLE_VERSION = 1;

export interface BundleCommit extends CommitRecord {
  files: FileRecord[];
}

export interface BundleRepository {
  type: RepoType;
  id: string;
  /** The upstream base URL the repository mirrors. */
  mirrorOf: string;
  private: boolean;
  gated: Gated;
  refs: Array<{ name: string; commit: string }>;
  /** Oldest first (a parent before its children); parents upstream never served are absent. */
  commits: BundleCommit[];
}

export interface BundleContent {
  sha256: string;
  size: number;
  /** How it travels: as a blob (`content/<sha256>`) or as a Xet file (its chunks in `xorbs/`). */
  as: "blob" | "xet";
  /** Upstream's Xet hash, for LFS content (mirror_contents.xet_hash). */
  xetHash?: string;
}

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  createdAt: string;
  repositories: BundleRepository[];
  contents: BundleContent[];
  xetFiles: XetFileRow[];
  xorbs: Array<{ hash: string; size: number }>;
  /** LFS content the repositories name that this hub had not fetched: not in the bundle. */
  missing: Array<{ repo: string; path: string; sha256: string; size: number }>;
}

export interface BundleDeps {
  store: Store;
  blobs: BlobStore;
  cas: CasService;
}

/** A bundle that cannot be imported: what is wrong, so the admin knows which file to fetch again. */
export class BundleError extends InvalidInputError {
  constructor(message: string) {
    super(`Invalid mirror bundle: ${message}`);
    this.name = "BundleError";
  }
}

const repoLabel = (repo: { type: RepoType; id: string }) =>
  repo.type === "model" ? repo.id : `${repo.type}s/${repo.id}`;

/** The commits of a repository reachable from its refs that this hub holds, parents first. */
async function commitsOf(store: Store, repo: RepoRecord): Promise<CommitRecord[]> {
  const seen = new Map<string, CommitRecord>();
  const order: CommitRecord[] = [];
  const visit = async (oid: string) => {
    const stack = [oid];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      const commit = await store.repos.commit(repo.key, next);
      if (!commit) continue; // a parent upstream has that this mirror never imported
      seen.set(next, commit);
      stack.push(...commit.parents);
    }
  };
  for (const ref of await store.repos.refs(repo.key)) await visit(ref.commitOid);
  // Parents first: each commit after every commit of the bundle it descends from.
  const placed = new Set<string>();
  const place = (commit: CommitRecord) => {
    const stack: Array<{ commit: CommitRecord; expanded: boolean }> = [{ commit, expanded: false }];
    while (stack.length > 0) {
      const top = stack.pop()!;
      if (placed.has(top.commit.oid)) continue;
      if (top.expanded) {
        placed.add(top.commit.oid);
        order.push(top.commit);
        continue;
      }
      stack.push({ commit: top.commit, expanded: true });
      for (const parent of top.commit.parents) {
        const known = seen.get(parent);
        if (known && !placed.has(parent)) stack.push({ commit: known, expanded: false });
      }
    }
  };
  for (const commit of [...seen.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt)))
    place(commit);
  return order;
}

/** Writes a bundle of `repos` (mirrored repositories) to `out`; returns its manifest. */
export async function exportBundle(
  deps: BundleDeps,
  repos: readonly RepoRecord[],
  out: Writable,
): Promise<BundleManifest> {
  const { store, blobs, cas } = deps;
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    createdAt: new Date().toISOString(),
    repositories: [],
    contents: [],
    xetFiles: [],
    xorbs: [],
    missing: [],
  };
  const contents = new Map<string, BundleContent>();
  const xetFiles = new Map<string, XetFileRow>();
  const xorbs = new Map<string, { hash: string; size: number; blobSha256: string }>();
  for (const repo of repos) {
    if (!repo.mirrorOf) {
      throw new InvalidInputError(
        `${repoLabel(repo)} is a local repository, not a mirror: only mirrors export.`,
      );
    }
    const commits: BundleCommit[] = [];
    for (const commit of await commitsOf(store, repo)) {
      const files = await store.repos.files(repo.key, commit.oid);
      commits.push({ ...commit, files });
      for (const file of files) {
        if (contents.has(file.sha256)) continue;
        const declared = file.lfs ? await store.mirror.content(file.sha256) : undefined;
        const xetFile = file.lfs ? await cas.fileOfContent(repo.key, file.sha256) : undefined;
        if (xetFile && (!declared || declared.stored)) {
          contents.set(file.sha256, {
            sha256: file.sha256,
            size: file.size,
            as: "xet",
            xetHash: declared?.xetHash,
          });
          xetFiles.set(xetFile.hash, xetFile);
          for (const term of xetFile.terms) {
            if (xorbs.has(term.xorb)) continue;
            const stored = await cas.xorb(term.xorb);
            if (!stored)
              throw new Error(`Xorb ${term.xorb} of ${repoLabel(repo)}/${file.path} is not stored.`);
            xorbs.set(term.xorb, { hash: term.xorb, size: stored.size, blobSha256: stored.blobSha256 });
          }
        } else if ((!file.lfs || declared?.stored !== false) && (await blobs.head(file.sha256))) {
          contents.set(file.sha256, {
            sha256: file.sha256,
            size: file.size,
            as: "blob",
            xetHash: declared?.xetHash,
          });
        } else if (file.lfs) {
          if (!manifest.missing.some((m) => m.sha256 === file.sha256)) {
            manifest.missing.push({
              repo: repoLabel(repo),
              path: file.path,
              sha256: file.sha256,
              size: file.size,
            });
          }
        } else {
          throw new Error(
            `The content of ${repoLabel(repo)}/${file.path} (sha256:${file.sha256}) is not stored.`,
          );
        }
      }
    }
    // A name the mirror resolved but whose commit it never imported (a branch nobody read yet) stays home:
    // the importing hub could not serve it.
    const carried = new Set(commits.map((commit) => commit.oid));
    const refs = (await store.repos.refs(repo.key))
      .filter((ref) => carried.has(ref.commitOid))
      .map((ref) => ({ name: ref.name, commit: ref.commitOid }));
    manifest.repositories.push({
      type: repo.type,
      id: repo.id,
      mirrorOf: repo.mirrorOf,
      private: repo.private,
      gated: repo.gated,
      refs,
      commits,
    });
  }
  manifest.contents = [...contents.values()];
  manifest.xetFiles = [...xetFiles.values()];
  manifest.xorbs = [...xorbs.values()].map(({ hash, size }) => ({ hash, size }));

  const pack = tar.pack();
  const written = pipeline(pack, out);
  const entry = async (name: string, size: number, body: Readable | Buffer) => {
    let done!: (error?: Error | null) => void;
    const finished = new Promise<void>((resolve, reject) => {
      done = (error) => (error ? reject(error) : resolve());
    });
    const sink = pack.entry({ name, size, mtime: new Date(0) }, done);
    if (Buffer.isBuffer(body)) sink.end(body);
    else await pipeline(body, sink);
    await finished;
  };
  try {
    const json = Buffer.from(JSON.stringify(manifest));
    await entry("manifest.json", json.length, json);
    for (const content of manifest.contents) {
      if (content.as === "blob")
        await entry(`content/${content.sha256}`, content.size, await blobs.get(content.sha256));
    }
    for (const xorb of xorbs.values())
      await entry(`xorbs/${xorb.hash}`, xorb.size, await blobs.get(xorb.blobSha256));
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    throw error;
  } finally {
    await written.catch((error) => {
      if (!pack.destroyed) throw error;
    });
  }
  return manifest;
}

export interface ImportReport {
  repositories: Array<{ id: string; type: RepoType; commits: number; refs: number; created: boolean }>;
  contents: number;
  xetFiles: number;
  xorbs: number;
  /** LFS content the bundle names without carrying it (not fetched on the exporting hub). */
  missing: number;
}

const SHA256 = /^[0-9a-f]{64}$/;

function checkManifest(value: unknown): BundleManifest {
  const manifest = value as BundleManifest;
  if (typeof value !== "object" || value === null || manifest.format !== BUNDLE_FORMAT) {
    throw new BundleError("manifest.json is not a Modelhub mirror bundle's manifest.");
  }
  if (manifest.version !== BUNDLE_VERSION) {
    throw new BundleError(
      `version ${manifest.version} is not ${BUNDLE_VERSION}: import it with a matching hub.`,
    );
  }
  for (const key of ["repositories", "contents", "xetFiles", "xorbs", "missing"] as const) {
    if (!Array.isArray(manifest[key])) throw new BundleError(`manifest.json has no ${key} list.`);
  }
  for (const content of manifest.contents) {
    if (!SHA256.test(content.sha256) || !Number.isSafeInteger(content.size)) {
      throw new BundleError(`manifest.json lists content ${JSON.stringify(content.sha256)} malformed.`);
    }
  }
  return manifest;
}

/**
 * Reads a bundle from `input` and creates (or completes) its mirrored repositories. Every hash is checked
 * first: a bundle with one wrong byte imports no repository (the content already put stays unreferenced,
 * for blob garbage collection). A local repository with a bundled id is never touched: local wins.
 */
export async function importBundle(
  deps: BundleDeps & { repos: RepoService; now?: () => Date },
  input: Readable,
): Promise<ImportReport> {
  const { store, blobs, cas } = deps;
  const extract = tar.extract();
  const fed = pipeline(input, extract);
  fed.catch(() => undefined);
  let manifest: BundleManifest | undefined;
  const received = new Set<string>();
  let xorbCount = 0;
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      const body = entry as unknown as AsyncIterable<Uint8Array>;
      if (!manifest) {
        if (name !== "manifest.json") throw new BundleError(`its first entry is ${name}, not manifest.json.`);
        const chunks: Buffer[] = [];
        for await (const chunk of body) chunks.push(Buffer.from(chunk));
        try {
          manifest = checkManifest(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        } catch (error) {
          if (error instanceof BundleError) throw error;
          throw new BundleError(`manifest.json is not JSON (${(error as Error).message}).`);
        }
        continue;
      }
      const [kind, key = ""] = name.split("/");
      if (kind === "content") {
        const content = manifest.contents.find((c) => c.sha256 === key && c.as === "blob");
        if (!content) throw new BundleError(`${name} is not in its manifest.`);
        try {
          await blobs.put(body, { sha256: content.sha256, size: content.size });
        } catch (error) {
          if (error instanceof BlobMismatchError) {
            throw new BundleError(
              `${name} holds ${error.actual.size} bytes hashing to ${error.actual.sha256}, not the declared ${content.size} bytes of ${content.sha256}.`,
            );
          }
          throw error;
        }
        received.add(content.sha256);
      } else if (kind === "xorbs") {
        if (!manifest.xorbs.some((x) => x.hash === key))
          throw new BundleError(`${name} is not in its manifest.`);
        try {
          // Already stored: the CAS does not read the body, and the tar goes on only once it is drained.
          if (!(await cas.uploadXorb(key, body))) for await (const _ of body);
        } catch (error) {
          throw new BundleError(`${name}: ${(error as Error).message}`);
        }
        xorbCount++;
      } else {
        throw new BundleError(`it holds ${name}, which no bundle holds.`);
      }
    }
    await fed;
  } catch (error) {
    extract.destroy();
    if (error instanceof BundleError) throw error;
    throw new BundleError(`the tar cannot be read (${(error as Error).message}); is the file complete?`);
  }
  if (!manifest) throw new BundleError("it is empty (no manifest.json).");
  for (const content of manifest.contents) {
    if (content.as === "blob" && !received.has(content.sha256)) {
      throw new BundleError(`content/${content.sha256} is listed in its manifest but absent.`);
    }
  }
  const xetFiles = await verifyXetFiles(deps, manifest);
  await verifyTrees(blobs, manifest);

  const report: ImportReport = {
    repositories: [],
    contents: received.size,
    xetFiles: xetFiles.size,
    xorbs: xorbCount,
    missing: manifest.missing.length,
  };
  const now = (deps.now ?? (() => new Date()))().toISOString();
  const declared = new Map(manifest.contents.map((c) => [c.sha256, c]));
  for (const bundled of manifest.repositories) {
    const result = await importRepository(store, bundled, now);
    report.repositories.push(result.summary);
    // LFS content: known to the mirror (served, counted, evictable) and stored when the bundle carried it.
    const lfs = new Map<string, FileRecord>();
    for (const commit of bundled.commits)
      for (const file of commit.files) if (file.lfs) lfs.set(file.sha256, file);
    for (const file of lfs.values()) {
      const content = declared.get(file.sha256);
      await store.mirror.declareContent({ sha256: file.sha256, size: file.size, xetHash: content?.xetHash });
      if (content) await store.mirror.markStored(file.sha256, now);
    }
    for (const file of xetFiles.values()) {
      if (lfs.has(file.sha256)) await cas.registerOwnFile(file, result.repo.key);
    }
    const main = await store.repos.ref(result.repo.key, branchRef("main"));
    if (main) await deps.repos.derive(result.repo, main);
  }
  return report;
}

/** Each Xet file's hash from its chunks' hashes, and its sha256 from its bytes; the files by hash. */
async function verifyXetFiles(
  deps: BundleDeps,
  manifest: BundleManifest,
): Promise<Map<string, XetFileRow & { sha256: string }>> {
  const hashing = await loadXetHashing();
  const verified = new Map<string, XetFileRow & { sha256: string }>();
  for (const file of manifest.xetFiles) {
    const leaves: Array<{ hash: Uint8Array; size: number }> = [];
    for (const term of file.terms) {
      const rows = (await deps.store.xet.chunks(term.xorb)).slice(term.start, term.end);
      if (rows.length !== term.end - term.start) {
        throw new BundleError(
          `Xet file ${file.hash} names chunks ${term.start}-${term.end} of xorb ${term.xorb}, which it does not carry.`,
        );
      }
      for (const row of rows) leaves.push({ hash: hexToHash(row.hash), size: row.unpackedSize });
    }
    if (!hashesEqual(hashing.fileHash(leaves), hexToHash(file.hash))) {
      throw new BundleError(
        `Xet file ${file.hash}: its chunks hash to ${hashToHex(hashing.fileHash(leaves))}.`,
      );
    }
    const size = leaves.reduce((n, leaf) => n + leaf.size, 0);
    const sha256 = await deps.cas.sha256Of({ ...file, size });
    if (sha256 !== file.sha256 || size !== file.size) {
      throw new BundleError(
        `Xet file ${file.hash}: its bytes are ${size} bytes of sha256:${sha256}, not ${file.size} of ${file.sha256}.`,
      );
    }
    verified.set(file.hash, { ...file, size, sha256 });
  }
  for (const content of manifest.contents) {
    if (content.as === "xet" && ![...verified.values()].some((file) => file.sha256 === content.sha256)) {
      throw new BundleError(
        `content ${content.sha256} travels as Xet but no Xet file of the bundle holds it.`,
      );
    }
  }
  return verified;
}

/** Each commit's tree id from its files; each file's git blob id from its bytes (or its LFS pointer). */
async function verifyTrees(blobs: BlobStore, manifest: BundleManifest): Promise<void> {
  const checkedBlobs = new Map<string, string>();
  for (const repo of manifest.repositories) {
    for (const commit of repo.commits) {
      for (const file of commit.files) {
        const key = `${file.lfs}:${file.sha256}`;
        let oid = checkedBlobs.get(key);
        if (oid === undefined) {
          if (file.lfs) {
            oid = gitBlobId(Buffer.from(lfsPointerText(file.sha256, file.size)));
          } else {
            const content =
              file.size === 0
                ? Buffer.alloc(0)
                : await blobs.read(file.sha256, { start: 0, end: file.size - 1 });
            if (createHash("sha256").update(content).digest("hex") !== file.sha256) {
              throw new BundleError(
                `${repoLabel(repo)}/${file.path}: its bytes are not sha256:${file.sha256}.`,
              );
            }
            oid = gitBlobId(content);
          }
          checkedBlobs.set(key, oid);
        }
        if (oid !== file.blobOid) {
          throw new BundleError(
            `${repoLabel(repo)}/${file.path} at ${commit.oid}: its git blob id is ${oid}, not ${file.blobOid}.`,
          );
        }
      }
      const sealed: SealedNode[] = [];
      const root = sealDraft(draftOfFiles(commit.files), (_path, entries) => gitTreeIdOf(entries), sealed);
      const tree = root?.tree ?? "";
      if (tree !== commit.tree) {
        throw new BundleError(
          `${repoLabel(repo)} commit ${commit.oid}: its files make tree ${tree}, not ${commit.tree}.`,
        );
      }
    }
  }
}

/** Creates the mirrored repository (or finds it) and adds the commits and refs it lacks. */
async function importRepository(
  store: Store,
  bundled: BundleRepository,
  now: string,
): Promise<{ repo: RepoRecord; summary: ImportReport["repositories"][number] }> {
  return store.writeTransaction(async (tx) => {
    let repo = await tx.repos.get(bundled.type, bundled.id);
    const created = !repo;
    if (repo && !repo.mirrorOf) {
      throw new InvalidInputError(
        `${repoLabel(bundled)} is a local repository here: a local repository wins over a mirrored one, so the bundle's copy was not imported.`,
      );
    }
    if (!repo) {
      repo = await tx.repos.insert({
        type: bundled.type,
        id: bundled.id,
        owner: parseRepoId(bundled.id, { legacy: bundled.type === "model" }).owner,
        private: bundled.private,
        gated: bundled.gated,
        now,
        mirrorOf: bundled.mirrorOf,
      });
      if (repo.type === "model" && !(await tx.models.get(repo.id))) {
        await tx.models.upsert({
          id: repo.id,
          tags: [],
          private: repo.private,
          gated: repo.gated,
          createdAt: repo.createdAt,
          lastModified: repo.lastModified,
        });
      }
    }
    await tx.lock(repoLock(repo.key));
    let commits = 0;
    for (const commit of bundled.commits) {
      if (await tx.repos.commit(repo.key, commit.oid)) continue;
      const sealed: SealedNode[] = [];
      const root = sealDraft(draftOfFiles(commit.files), (_path, entries) => gitTreeIdOf(entries), sealed)!;
      const { files, ...record } = commit;
      await tx.repos.writeTree(repo.key, sealed);
      await tx.repos.recordContents(repo.key, files);
      await tx.repos.insertCommit(repo.key, record, root.node);
      commits++;
    }
    for (const ref of bundled.refs) {
      if (!bundled.commits.some((commit) => commit.oid === ref.commit)) {
        throw new BundleError(
          `${repoLabel(bundled)}: ref ${ref.name} names commit ${ref.commit}, which it does not carry.`,
        );
      }
      await tx.repos.setRef(repo.key, ref.name, ref.commit);
      await tx.mirror.markRefChecked(repo.key, ref.name, now);
    }
    await tx.repos.touch(repo.key, now);
    return {
      repo,
      summary: { id: repo.id, type: repo.type, commits, refs: bundled.refs.length, created },
    };
  });
}
