import { createHash } from "node:crypto";
import { HubError } from "../errors.js";
import type { StorageQuotaCheck } from "../limits/storage-quotas.js";
import type { CommitOperation } from "../repos/commit-engine.js";
import type { ContentClaims } from "../repos/content-claims.js";
import { LFS_SIZE_THRESHOLD, lfsPointerText } from "../repos/lfs-pointer.js";
import type { RepoActor } from "../repos/repo-access.js";
import { parseRepoPath } from "../repos/repo-path.js";
import type { RepoRecord } from "../repos/repo-records.js";
import type { RepoService } from "../repos/repo-service.js";
import { parseRefName } from "../repos/revision.js";
import type { StoreTransaction } from "../store/store.js";
import { runGit } from "./git-process.js";

/**
 * One ref of a `git push`, turned into hub commits (docs/decisions/git-http.md, "Push"). receive-pack has
 * received the pack into its quarantine; the `update` hook hands each ref here before git moves it. Every
 * new commit goes through the hub's commit engine (repo-service `commit`: write access was checked by the
 * route, path rules, LFS content claims, scanning, webhooks), recorded under git's own id: its tree must
 * come out as git's, and its body (authors, time zones, message) is kept so that the bare repository git
 * serves rebuilds it byte for byte. A refusal is a PushRefusedError, whose message git prints.
 */

export class PushRefusedError extends HubError {
  constructor(message: string) {
    super(400, "push_refused", message);
  }
}

const ZERO = "0".repeat(40);
/** A push of more new commits than this is refused (split it): each is one commit of the hub. */
export const MAX_PUSHED_COMMITS = 10_000;

export interface PushDeps {
  repos: RepoService;
  claims: ContentClaims;
  /** Storage quotas (limits/storage-quotas.ts), asked before a pushed file's bytes are stored; unset: none. */
  quotas?: StorageQuotaCheck;
}

export interface PushContext {
  repo: RepoRecord;
  actor: RepoActor;
  /** The hub user the commits are recorded under. */
  author: string;
  /** The scratch repository receive-pack runs in, and the quarantine's environment the hook was given. */
  cwd: string;
  env: Record<string, string>;
}

export interface RefUpdate {
  ref: string;
  oldOid: string;
  newOid: string;
}

/** Applies one pushed ref to the hub, or throws PushRefusedError (or a HubError) saying why not. */
export async function applyPushedRef(deps: PushDeps, context: PushContext, update: RefUpdate): Promise<void> {
  const { repos } = deps;
  const { repo } = context;
  const { ref, newOid } = update;
  const oldOid = update.oldOid === ZERO ? null : update.oldOid;
  const deleting = newOid === ZERO;
  const current = (await repos.refTarget(repo, ref)) ?? null;
  if (current !== oldOid) {
    throw new PushRefusedError(
      `${ref} moved meanwhile (it is at ${current ?? "nothing"}): fetch, then push again.`,
    );
  }
  if (ref.startsWith("refs/tags/")) {
    const name = refName(ref.slice("refs/tags/".length), "tag");
    if (deleting) return repos.deleteTag(repo, name);
    if (oldOid) throw new PushRefusedError(`Tag ${name} exists: tags are not moved (delete it first).`);
    const type = (await git(context, ["cat-file", "-t", newOid])).trim();
    if (type !== "commit") {
      throw new PushRefusedError(
        `Tag ${name} is an annotated tag: only lightweight tags (git tag ${name}) can be pushed.`,
      );
    }
    if (!(await repos.commitRecord(repo, newOid))) {
      throw new PushRefusedError(
        `Tag ${name} names a commit no branch of this repository holds: push that branch first.`,
      );
    }
    return repos.createTag(repo, name, newOid);
  }
  const isBranch = ref.startsWith("refs/heads/");
  const isPullRequest = /^refs\/pr\/\d+$/.test(ref);
  if (!isBranch && !isPullRequest) {
    throw new PushRefusedError(
      `${ref} cannot be pushed: push branches (refs/heads/*), lightweight tags (refs/tags/*) or an open pull request's refs/pr/N.`,
    );
  }
  if (isBranch) refName(ref.slice("refs/heads/".length), "branch");
  if (deleting) {
    if (isPullRequest)
      throw new PushRefusedError(`${ref} cannot be deleted: close the pull request instead.`);
    const name = ref.slice("refs/heads/".length);
    if (name === "main") throw new PushRefusedError("The main branch cannot be deleted.");
    return repos.deleteBranch(repo, name);
  }
  if (isPullRequest && !oldOid) {
    throw new PushRefusedError(
      `${ref} does not exist: open the pull request on the hub first, then push to it.`,
    );
  }
  const type = (await git(context, ["cat-file", "-t", newOid])).trim();
  if (type !== "commit") throw new PushRefusedError(`${ref} must point at a commit, not a ${type}.`);
  const commits = await newCommits(deps, context, newOid);
  if (commits.length === 0) return repos.moveRef(repo, ref, oldOid, newOid);
  let head = oldOid;
  for (const oid of commits) {
    await pushCommit(deps, context, ref, oid, head);
    head = oid;
  }
}

function refName(name: string, what: "branch" | "tag"): string {
  try {
    return parseRefName(name, what);
  } catch (error) {
    throw new PushRefusedError((error as Error).message);
  }
}

function git(context: PushContext, args: string[], input?: string): Promise<string> {
  return runGit(context.cwd, args, input, context.env).then((out) => out.toString("utf8"));
}

/** The commits of `tip`'s history the hub does not have yet, parents first. */
async function newCommits(deps: PushDeps, context: PushContext, tip: string): Promise<string[]> {
  // --all: the refs the scratch repository was given, the hub's when the push started.
  const listed = (await git(context, ["rev-list", "--topo-order", "--reverse", tip, "--not", "--all"]))
    .split("\n")
    .filter(Boolean);
  if (listed.length > MAX_PUSHED_COMMITS) {
    throw new PushRefusedError(
      `This push brings ${listed.length} new commits; at most ${MAX_PUSHED_COMMITS} are taken at once: push in parts.`,
    );
  }
  const missing: string[] = [];
  for (const oid of listed) if (!(await deps.repos.commitRecord(context.repo, oid))) missing.push(oid);
  return missing;
}

/** A commit object's parts, as git wrote it. */
interface ParsedCommit {
  body: string;
  tree: string;
  parents: string[];
  committerTime: number;
  message: string;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

function parseCommit(oid: string, raw: Buffer): ParsedCommit {
  let body: string;
  try {
    body = STRICT_UTF8.decode(raw);
  } catch {
    throw new PushRefusedError(
      `Commit ${oid} is not UTF-8: rewrite it (git commit --amend) with a UTF-8 message.`,
    );
  }
  const split = body.indexOf("\n\n");
  const headers = (split < 0 ? body : body.slice(0, split)).split("\n");
  const message = split < 0 ? "" : body.slice(split + 2);
  let tree = "";
  const parents: string[] = [];
  let committerTime = Number.NaN;
  for (const line of headers) {
    const space = line.indexOf(" ");
    const key = line.slice(0, space);
    const value = line.slice(space + 1);
    if (key === "tree") tree = value;
    else if (key === "parent") parents.push(value);
    else if (key === "author") continue;
    else if (key === "committer") committerTime = Number(/ (\d+) [+-]\d{4}$/.exec(value)?.[1]);
    else if (key === "gpgsig" || key === "gpgsig-sha256" || line.startsWith(" ")) {
      throw new PushRefusedError(
        `Commit ${oid} is signed: signed commits cannot be pushed here yet (the hub could not serve the signature back). Push it unsigned (git commit --amend --no-gpg-sign).`,
      );
    } else {
      throw new PushRefusedError(
        `Commit ${oid} has a "${key.slice(0, 40)}" header, which this hub does not keep: rewrite it without.`,
      );
    }
  }
  if (parents.length > 1) {
    throw new PushRefusedError(
      `Commit ${oid} is a merge: merge commits cannot be pushed yet. Rebase instead (git pull --rebase), then push again.`,
    );
  }
  if (!tree || !Number.isFinite(committerTime)) throw new PushRefusedError(`Commit ${oid} cannot be read.`);
  return { body, tree, parents, committerTime, message };
}

/** One pushed commit onto `ref` (at `head`), through the commit engine. */
async function pushCommit(
  deps: PushDeps,
  context: PushContext,
  ref: string,
  oid: string,
  head: string | null,
) {
  const parsed = parseCommit(
    oid,
    await runGit(context.cwd, ["cat-file", "commit", oid], undefined, context.env),
  );
  const parent = parsed.parents[0];
  const operations = await operationsOf(deps, context, oid, parent);
  const lines = parsed.message.replace(/\s+$/, "").split("\n");
  const title = (lines[0] ?? "").trim() || `Pushed ${oid.slice(0, 7)}`;
  const description = lines.slice(1).join("\n").trim();
  try {
    await deps.repos.commit(context.repo, {
      ref,
      title: title.slice(0, 1000),
      description,
      author: context.author,
      operations,
      gitCommit: {
        oid,
        tree: parsed.tree,
        parents: parsed.parents,
        createdAt: new Date(parsed.committerTime * 1000).toISOString(),
        expectedHead: head,
      },
      inTransaction: (tx: StoreTransaction) => tx.gitCommits.insert(context.repo.key, oid, parsed.body),
    });
  } catch (error) {
    if (error instanceof HubError) throw new PushRefusedError(`Commit ${oid.slice(0, 12)}: ${error.message}`);
    throw error;
  }
}

/** git's changes of a commit against its parent (every file for a root commit), as commit operations. */
async function operationsOf(
  deps: PushDeps,
  context: PushContext,
  oid: string,
  parent: string | undefined,
): Promise<CommitOperation[]> {
  const changes: { status: "A" | "D"; mode: string; blob: string; path: string }[] = [];
  if (parent) {
    // -z raw: ":oldmode newmode oldsha newsha status\0path\0" per change; renames off, so A, M, D and T only.
    const fields = (
      await git(context, ["diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", parent, oid])
    ).split("\0");
    for (let index = 0; index + 1 < fields.length; index += 2) {
      const [, newMode, , newBlob, status] = fields[index]!.slice(1).split(" ");
      const path = fields[index + 1]!;
      changes.push(
        status === "D"
          ? { status: "D", mode: "", blob: "", path }
          : { status: "A", mode: newMode!, blob: newBlob!, path },
      );
    }
  } else {
    // "mode type oid\tpath\0" per file.
    for (const entry of (await git(context, ["ls-tree", "-r", "-z", oid])).split("\0").filter(Boolean)) {
      const tab = entry.indexOf("\t");
      const [mode, , blob] = entry.slice(0, tab).split(" ");
      changes.push({ status: "A", mode: mode!, blob: blob!, path: entry.slice(tab + 1) });
    }
  }
  const operations: CommitOperation[] = [];
  const puts: { path: string; blob: string }[] = [];
  /** The commit's regular files so far, for the quota check. */
  const incoming: { sha256: string; size: number }[] = [];
  for (const change of changes) {
    const path = repoPath(change.path, oid);
    if (change.status === "D") {
      operations.push({ kind: "deleteFile", path });
      continue;
    }
    if (change.mode !== "100644") {
      const what =
        change.mode === "100755"
          ? "an executable file"
          : change.mode === "120000"
            ? "a symbolic link"
            : change.mode === "160000"
              ? "a submodule"
              : `mode ${change.mode}`;
      throw new PushRefusedError(
        `${path} (commit ${oid.slice(0, 12)}) is ${what}: only regular files can be pushed (git update-index --chmod=-x, or replace the link with the file).`,
      );
    }
    puts.push({ path, blob: change.blob });
  }
  // Sizes first (one git process), then the bytes in batches of at most 64 MB (one process each).
  const sizes = await blobSizes(
    context,
    puts.map((put) => put.blob),
  );
  for (const put of puts) {
    const size = sizes.get(put.blob) ?? 0;
    if (size > LFS_SIZE_THRESHOLD) {
      throw new PushRefusedError(
        `${put.path} is ${size} bytes: files larger than 10 MB must be stored with Git LFS (git lfs track "${put.path}", then commit it again).`,
      );
    }
  }
  for (let start = 0; start < puts.length; ) {
    let end = start;
    let bytes = 0;
    while (end < puts.length && (end === start || bytes + (sizes.get(puts[end]!.blob) ?? 0) <= BATCH_BYTES)) {
      bytes += sizes.get(puts[end]!.blob) ?? 0;
      end++;
    }
    const batch = puts.slice(start, end);
    const contents = await blobContents(
      context,
      batch.map((put) => put.blob),
    );
    // Regular files count against the owner's quota by content, as a commit's inline files do
    // (write-routes.ts); an LFS object was counted when its upload was accepted (the LFS batch).
    if (deps.quotas) {
      for (const put of batch) {
        const content = contents.get(put.blob)!;
        if (!looksLikeLfsPointer(content)) {
          incoming.push({
            sha256: createHash("sha256").update(content).digest("hex"),
            size: content.byteLength,
          });
        }
      }
      await deps.quotas.assertRoom(context.repo, incoming);
    }
    // Stored 16 at a time: each is a write to the blob store.
    for (let first = 0; first < batch.length; first += 16) {
      const group = batch.slice(first, first + 16);
      operations.push(
        ...(await Promise.all(
          group.map((put) => putOperation(deps, context, put.path, contents.get(put.blob)!)),
        )),
      );
    }
    start = end;
  }
  return operations;
}

const BATCH_BYTES = 64 * 1024 * 1024;

/** The sizes of blobs, from one `git cat-file --batch-check` ("<oid> blob <size>" per line). */
async function blobSizes(context: PushContext, blobs: string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (blobs.length === 0) return sizes;
  const out = await git(context, ["cat-file", "--batch-check"], `${[...new Set(blobs)].join("\n")}\n`);
  for (const line of out.split("\n")) {
    const [oid, , size] = line.split(" ");
    if (oid && size) sizes.set(oid, Number(size));
  }
  return sizes;
}

/** The bytes of blobs, from one `git cat-file --batch` ("<oid> blob <size>\n<bytes>\n" each). */
async function blobContents(context: PushContext, blobs: string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(blobs)];
  const out = await runGit(context.cwd, ["cat-file", "--batch"], `${unique.join("\n")}\n`, context.env);
  const contents = new Map<string, Buffer>();
  let at = 0;
  while (at < out.length) {
    const newline = out.indexOf(10, at);
    const [oid, type, size] = out.subarray(at, newline).toString("latin1").split(" ");
    if (type !== "blob") throw new PushRefusedError(`Object ${oid} is not a blob (${type}).`);
    const length = Number(size);
    contents.set(oid!, out.subarray(newline + 1, newline + 1 + length));
    at = newline + 1 + length + 1;
  }
  return contents;
}

function repoPath(path: string, oid: string): string {
  try {
    return parseRepoPath(path);
  } catch (error) {
    throw new PushRefusedError(`Commit ${oid.slice(0, 12)}: ${(error as Error).message}`);
  }
}

/** A small blob that starts as a git-lfs pointer does (whether it is a valid one is checked after). */
function looksLikeLfsPointer(content: Buffer): boolean {
  return content.byteLength < 1024 && content.toString("latin1", 0, 23) === "version https://git-lfs";
}

const POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:([0-9a-f]{64})\nsize (\d+)\n$/;

/** A pushed blob: an LFS pointer to content this repository may reference, or a regular file of ≤ 10 MB. */
async function putOperation(
  deps: PushDeps,
  context: PushContext,
  path: string,
  content: Buffer,
): Promise<CommitOperation> {
  if (looksLikeLfsPointer(content)) {
    const text = content.toString("latin1");
    const match = POINTER.exec(text);
    if (!match)
      throw new PushRefusedError(
        `${path} is an LFS pointer this hub does not read: only sha256 pointers of git-lfs's spec v1.`,
      );
    const sha256 = match[1]!;
    const declared = Number(match[2]);
    if (lfsPointerText(sha256, declared) !== text) {
      throw new PushRefusedError(
        `${path} is an LFS pointer written unusually (its size "${match[2]}"): write it with git-lfs.`,
      );
    }
    // Uploaded for this repository, in its history, or readable by the pusher elsewhere: content-claims.ts.
    const stored = await deps.claims.claim(context.actor, context.repo, sha256);
    if (!stored) {
      throw new PushRefusedError(
        `${path} points to LFS object sha256:${sha256}, which was not uploaded for this repository: push with git-lfs installed (git lfs install; git lfs push --all origin), or upload it again.`,
      );
    }
    if (stored.size !== declared) {
      throw new PushRefusedError(
        `${path}: the LFS object sha256:${sha256} is ${stored.size} bytes, not ${declared}.`,
      );
    }
    return {
      kind: "put",
      path,
      file: deps.repos.lfsFile(path, sha256, declared),
      uploaded: !stored.elsewhere && !stored.xetFile,
    };
  }
  const { path: _, ...file } = await deps.repos.putRegular(path, content);
  return { kind: "put", path, file };
}
