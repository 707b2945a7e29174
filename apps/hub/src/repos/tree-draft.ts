import {
  compareNames,
  type EncodedNode,
  encodeFolder,
  type FileEntry,
  type FolderEntry,
  type NodeEntry,
  paginate,
  repaginate,
  type TreeNode,
} from "./tree-nodes.js";

/** A stored folder a draft started from: its entry, the ids of its stored nodes, its pages when it has any. */
export interface StoredFolder {
  entry: FolderEntry;
  storedIds: ReadonlySet<string>;
  pages?: readonly { id: string; entries: NodeEntry[] }[];
}

/**
 * A folder a commit is building or changing: its entries, each subfolder it changes a draft of its own.
 * Folders the commit does not touch stay as their stored entries (node and tree ids), never read.
 */
export class DraftFolder {
  readonly entries: Map<string, NodeEntry | DraftFolder>;
  /** Set when the draft differs from `before` (or is new). */
  changed: boolean;
  /** Names set or deleted here (a paged folder cuts again only the pages these fall in). */
  readonly touched = new Set<string>();

  constructor(
    /** Path of the folder ("" for the root). */
    readonly path: string,
    entries: Iterable<NodeEntry>,
    /** The stored folder this draft started from (its stored nodes are never written again). */
    readonly before?: StoredFolder,
  ) {
    this.entries = new Map([...entries].map((entry) => [entry.name, entry]));
    this.changed = before === undefined;
  }

  get name(): string {
    return this.path.slice(this.path.lastIndexOf("/") + 1);
  }

  set(name: string, value: NodeEntry | DraftFolder): void {
    this.entries.set(name, value);
    this.touched.add(name);
  }

  delete(name: string): void {
    this.entries.delete(name);
    this.touched.add(name);
  }
}

/** A folder's git tree id from its entries (the commit engine hashes as git does; a conversion looks it up). */
export type TreeIdOf = (path: string, entries: readonly NodeEntry[]) => string;

/** A node a seal produced, parsed as well (for the node cache). */
export interface SealedNode {
  node: EncodedNode;
  parsed: TreeNode;
}

/**
 * Seals a draft bottom-up: its subfolders first, then its own node. Appends to `out` the nodes that are not
 * stored yet; returns the folder's entry for its parent, or undefined for an emptied folder (git has no empty
 * folders; the root stays, as git's empty tree).
 */
export function sealDraft(
  draft: DraftFolder,
  treeIdOf: TreeIdOf,
  out: SealedNode[],
): FolderEntry | undefined {
  if (!draft.changed && draft.before) return draft.before.entry;
  const touched = new Set(draft.touched);
  const sealedFolders = new Map<string, FolderEntry | undefined>();
  for (const [name, value] of draft.entries) {
    if (!(value instanceof DraftFolder)) continue;
    sealedFolders.set(name, sealDraft(value, treeIdOf, out));
    if (value.changed) touched.add(name);
  }
  const current = (name: string): NodeEntry | undefined => {
    const value = draft.entries.get(name);
    return value instanceof DraftFolder ? sealedFolders.get(name) : value;
  };
  const pages = draft.before?.pages
    ? repaginate(draft.before.pages, current, touched)
    : paginate(
        [...draft.entries.keys()]
          .sort(compareNames)
          .map(current)
          .filter((entry): entry is NodeEntry => entry !== undefined),
      );
  const entries = pages.flatMap((page) => page.entries);
  if (entries.length === 0 && draft.path !== "") return undefined;
  const encoded = encodeFolder(treeIdOf(draft.path, entries), pages);
  for (const node of encoded.nodes) {
    if (!draft.before?.storedIds.has(node.node.id)) out.push(node);
  }
  return { name: draft.name, node: encoded.id, tree: encoded.nodes[0]!.parsed.tree! };
}

/** A root draft holding `files` (full paths): a whole snapshot at once (a first commit, a conversion). */
export function draftOfFiles(files: Iterable<Omit<FileEntry, "name"> & { path: string }>): DraftFolder {
  const root = new DraftFolder("", []);
  for (const file of files) {
    const segments = file.path.split("/");
    let folder = root;
    for (const segment of segments.slice(0, -1)) {
      let next = folder.entries.get(segment);
      if (!(next instanceof DraftFolder)) {
        next = new DraftFolder(folder.path === "" ? segment : `${folder.path}/${segment}`, []);
        folder.entries.set(segment, next);
      }
      folder = next;
    }
    const name = segments.at(-1)!;
    folder.entries.set(name, {
      name,
      blobOid: file.blobOid,
      sha256: file.sha256,
      size: file.size,
      lfs: file.lfs,
    });
  }
  return root;
}
