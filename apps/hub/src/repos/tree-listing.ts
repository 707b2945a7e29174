import type { Store } from "../store/store.js";
import { lfsPointerSize } from "./lfs-pointer.js";
import type { FileRecord, RepoRecord } from "./repos-table.js";
import type { SecurityFileStatus } from "./scan-port.js";

/** One entry of a tree listing or paths-info answer, in the public hub's shape. */
export interface TreeEntryView {
  type: "file" | "directory";
  oid: string;
  size: number;
  path: string;
  lfs?: { oid: string; size: number; pointerSize: number };
  /** The Xet file hash, for content uploaded to this repository through Xet (the public hub's field). */
  xetHash?: string;
  lastCommit?: { id: string; title: string; date: string };
  /** The content scanner's status (scan-port.ts), `unscanned` when the hub runs no scanner. */
  securityFileStatus?: SecurityFileStatus;
}

export function fileView(file: FileRecord): TreeEntryView {
  return {
    type: "file",
    oid: file.blobOid,
    size: file.size,
    path: file.path,
    ...(file.lfs
      ? { lfs: { oid: file.sha256, size: file.size, pointerSize: lfsPointerSize(file.sha256, file.size) } }
      : {}),
  };
}

/**
 * Adds `xetHash` to the LFS files of `entries` whose content this repository stored through Xet. Clients
 * download those through Xet straight from a listing (snapshot_download skips its HEAD calls for them).
 */
export async function addXetHashes(
  store: Store,
  repo: RepoRecord,
  entries: TreeEntryView[],
): Promise<TreeEntryView[]> {
  const lfsOids = entries.flatMap((entry) => (entry.lfs ? [entry.lfs.oid] : []));
  if (lfsOids.length === 0) return entries;
  const hashes = await store.xet.fileHashesOfShas(repo.key, lfsOids);
  return entries.map((entry) => {
    const xetHash = entry.lfs && hashes.get(entry.lfs.oid);
    if (!xetHash) return entry;
    // The public hub's key order: type, oid, size, lfs, xetHash, path.
    const { path, ...rest } = entry;
    return { ...rest, xetHash, path };
  });
}

export function directoryView(path: string, treeOid: string): TreeEntryView {
  return { type: "directory", oid: treeOid, size: 0, path };
}

/** Entries under a directory ("" = root): direct children, or every descendant when recursive. */
export async function listTree(
  store: Store,
  repo: RepoRecord,
  commitOid: string,
  dir: string,
  recursive: boolean,
): Promise<TreeEntryView[] | undefined> {
  const entries: TreeEntryView[] = [];
  if (recursive) {
    if (dir !== "" && !(await store.repos.tree(repo.key, commitOid, dir))) return undefined;
    for (const [path, oid] of await store.repos.treesUnder(repo.key, commitOid, dir)) {
      entries.push(directoryView(path, oid));
    }
    for (const file of await store.repos.files(repo.key, commitOid, dir || undefined))
      entries.push(fileView(file));
  } else {
    // Only the folder's own node (and pages): a listing of a large repository's root reads no subfolder.
    const children = await store.repos.children(repo.key, commitOid, dir);
    if (!children) return undefined;
    for (const [path, oid] of children.folders) entries.push(directoryView(path, oid));
    for (const file of children.files) entries.push(fileView(file));
  }
  // Directories first, then files, each by path, as the public hub lists a tree.
  return entries.sort((a, b) =>
    a.type === b.type ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) : a.type === "directory" ? -1 : 1,
  );
}

/** The entry at a path (file or directory), or undefined. */
export async function entryAt(
  store: Store,
  repo: RepoRecord,
  commitOid: string,
  path: string,
): Promise<TreeEntryView | undefined> {
  const file = await store.repos.file(repo.key, commitOid, path);
  if (file) return fileView(file);
  const tree = await store.repos.tree(repo.key, commitOid, path);
  return tree ? directoryView(path, tree) : undefined;
}

/**
 * Adds `lastCommit` (the newest commit on the first-parent line that changed each entry) and the security
 * field (`unscanned`) to a page of entries. Walks history once for the whole page; stops when every entry is placed.
 */
export async function expandEntries(
  store: Store,
  repo: RepoRecord,
  commitOid: string,
  entries: TreeEntryView[],
): Promise<TreeEntryView[]> {
  const oidAt = async (commit: string, entry: TreeEntryView) =>
    entry.type === "file"
      ? (await store.repos.file(repo.key, commit, entry.path))?.blobOid
      : await store.repos.tree(repo.key, commit, entry.path);
  const pending = new Set(entries.filter((entry) => entry.path !== ""));
  let current = await store.repos.commit(repo.key, commitOid);
  while (current && pending.size > 0) {
    const parentOid = current.parents[0];
    for (const entry of [...pending]) {
      if (!parentOid || (await oidAt(parentOid, entry)) !== entry.oid) {
        entry.lastCommit = { id: current.oid, title: current.title, date: current.createdAt };
        pending.delete(entry);
      }
    }
    current = parentOid ? await store.repos.commit(repo.key, parentOid) : undefined;
  }
  // Unscanned until the content scanner (when the app wires one) says otherwise: never called safe unread.
  for (const entry of entries) {
    if (entry.type === "file") {
      entry.securityFileStatus = { status: "unscanned", avScan: null, pickleImportScan: null };
    }
  }
  return entries;
}
