import { ConflictError, EntryNotFoundError } from "../errors.js";
import { gitTreeId, REGULAR_FILE_MODE, TREE_MODE } from "./git-objects.js";
import type { FileRecord } from "./repos-table.js";
import { DraftFolder, type SealedNode, sealDraft } from "./tree-draft.js";
import { type FolderEntry, isFolderEntry, type NodeEntry, type TreeNode } from "./tree-nodes.js";

/** What the editor reads: a repository's stored tree nodes (repos/tree-nodes-table.ts). */
export interface TreeNodeReader {
  node(repo: number, id: string): Promise<TreeNode>;
  entriesOf(repo: number, node: TreeNode): Promise<NodeEntry[]>;
  pagesOf(repo: number, node: TreeNode): Promise<{ id: string; entries: NodeEntry[] }[]>;
}

/** A folder's git tree id from its entries, as git hashes it. */
export function gitTreeIdOf(entries: readonly NodeEntry[]): string {
  return gitTreeId(
    entries.map((entry) =>
      isFolderEntry(entry)
        ? { name: entry.name, mode: TREE_MODE, oid: entry.tree }
        : { name: entry.name, mode: REGULAR_FILE_MODE, oid: entry.blobOid },
    ),
  );
}

const join = (folder: string, name: string) => (folder === "" ? name : `${folder}/${name}`);
const isAscii = (name: string) => /^[\x00-\x7f]*$/.test(name);

/** Whether a draft still holds a file (stored folders always do: git has no empty folders). */
function holdsFiles(draft: DraftFolder): boolean {
  for (const value of draft.entries.values()) {
    if (!(value instanceof DraftFolder) || holdsFiles(value)) return true;
  }
  return false;
}

const isFolderValue = (value: NodeEntry | DraftFolder | undefined): value is FolderEntry | DraftFolder =>
  value instanceof DraftFolder || (value !== undefined && isFolderEntry(value));

/**
 * Applies a commit's operations path by path to its parent's tree: only the folders on the changed paths are
 * read (each whole, since its git tree id covers every entry), a deleted folder is dropped without reading
 * it, and sealing writes new nodes for the changed folders only. The conflict rules are the flat snapshot's:
 * a file cannot replace a folder holding files, nor sit under a file; deleting what is not there is
 * EntryNotFound.
 */
export class TreeEditor {
  private constructor(
    private readonly reader: TreeNodeReader,
    private readonly repo: number,
    private readonly root: DraftFolder,
  ) {}

  /** An editor over `root` (a commit's root folder), or over an empty tree. */
  static async open(
    reader: TreeNodeReader,
    repo: number,
    root: FolderEntry | undefined,
  ): Promise<TreeEditor> {
    const editor = new TreeEditor(reader, repo, new DraftFolder("", []));
    return root ? new TreeEditor(reader, repo, await editor.load(root, "")) : editor;
  }

  private async load(entry: FolderEntry, path: string): Promise<DraftFolder> {
    const node = await this.reader.node(this.repo, entry.node);
    const storedIds = new Set([entry.node, ...(node.pages ?? []).map((page) => page.id)]);
    if (!node.pages) return new DraftFolder(path, node.entries ?? [], { entry, storedIds });
    const pages = await this.reader.pagesOf(this.repo, node);
    return new DraftFolder(
      path,
      pages.flatMap((page) => page.entries),
      { entry, storedIds, pages },
    );
  }

  /** The draft of subfolder `name` of `folder`, opened from its stored node on first use. */
  private async child(folder: DraftFolder, name: string): Promise<DraftFolder | undefined> {
    const value = folder.entries.get(name);
    if (value instanceof DraftFolder) return value;
    if (!value || !isFolderEntry(value)) return undefined;
    const draft = await this.load(value, join(folder.path, name));
    folder.entries.set(name, draft);
    return draft;
  }

  /** The drafts from the root to the folder holding `path`'s last segment, or undefined if one is missing. */
  private async existingChain(segments: readonly string[]): Promise<DraftFolder[] | undefined> {
    const chain = [this.root];
    for (const segment of segments.slice(0, -1)) {
      const next = await this.child(chain.at(-1)!, segment);
      if (!next) return undefined;
      chain.push(next);
    }
    return chain;
  }

  private static markChanged(chain: readonly DraftFolder[]): void {
    for (const folder of chain) folder.changed = true;
  }

  async put(path: string, file: Omit<FileRecord, "path">): Promise<void> {
    const segments = path.split("/");
    const chain = [this.root];
    for (const [index, segment] of segments.slice(0, -1).entries()) {
      const folder = chain.at(-1)!;
      const value = folder.entries.get(segment);
      let next = await this.child(folder, segment);
      if (!next) {
        if (value)
          throw new ConflictError(
            `Cannot write ${path}: ${segments.slice(0, index + 1).join("/")} is a file.`,
          );
        next = new DraftFolder(join(folder.path, segment), []);
        folder.set(segment, next);
      }
      chain.push(next);
    }
    const folder = chain.at(-1)!;
    const name = segments.at(-1)!;
    const existing = folder.entries.get(name);
    if (isFolderValue(existing)) {
      if (!(existing instanceof DraftFolder) || holdsFiles(existing)) {
        throw new ConflictError(`Cannot write the file ${path}: a folder of that name exists.`);
      }
    } else if (
      existing &&
      existing.blobOid === file.blobOid &&
      existing.sha256 === file.sha256 &&
      existing.size === file.size &&
      existing.lfs === file.lfs
    ) {
      return;
    }
    folder.set(name, { name, ...file });
    TreeEditor.markChanged(chain);
  }

  async deleteFile(path: string): Promise<void> {
    const segments = path.split("/");
    const chain = await this.existingChain(segments);
    const folder = chain?.at(-1);
    const existing = folder?.entries.get(segments.at(-1)!);
    if (!chain || !folder || !existing || isFolderValue(existing)) throw new EntryNotFoundError(path);
    folder.delete(existing.name);
    TreeEditor.markChanged(chain);
  }

  async deleteFolder(path: string): Promise<void> {
    const segments = path.split("/");
    const chain = await this.existingChain(segments);
    const folder = chain?.at(-1);
    const name = segments.at(-1)!;
    const existing = folder?.entries.get(name);
    if (
      !chain ||
      !folder ||
      !isFolderValue(existing) ||
      (existing instanceof DraftFolder && !holdsFiles(existing))
    ) {
      throw new EntryNotFoundError(path);
    }
    folder.delete(name);
    TreeEditor.markChanged(chain);
  }

  /**
   * Full paths of the entries of the folders on `paths` (the root included) that could be a case or
   * normalization twin of a name on those paths: two names that differ there are siblings in a folder on a
   * written path. An ASCII name folds to its lower case, so when every written name of a folder is ASCII, only
   * its siblings of the same lower case and its non-ASCII ones can fold alike: a 20,000-entry folder is not
   * folded name by name on every commit.
   */
  async entriesAround(paths: Iterable<string>): Promise<string[]> {
    const written = new Map<DraftFolder, Set<string>>();
    for (const path of paths) {
      const segments = path.split("/");
      const chain = await this.existingChain(segments);
      chain?.forEach((folder, depth) => {
        const names = written.get(folder) ?? new Set<string>();
        names.add(segments[depth]!);
        written.set(folder, names);
      });
    }
    const out: string[] = [];
    for (const [folder, names] of written) {
      const asciiOnly = [...names].every(isAscii);
      const lowered = new Set([...names].map((name) => name.toLowerCase()));
      for (const [name, value] of folder.entries) {
        if (value instanceof DraftFolder && !holdsFiles(value)) continue;
        if (asciiOnly && isAscii(name) && !lowered.has(name.toLowerCase())) continue;
        out.push(join(folder.path, name));
      }
    }
    return out;
  }

  /** Seals the edited tree: the new root (node id and git tree id) and the nodes to store. */
  seal(): { root: FolderEntry; nodes: SealedNode[] } {
    const nodes: SealedNode[] = [];
    const root = sealDraft(this.root, (_path, entries) => gitTreeIdOf(entries), nodes)!;
    return { root, nodes };
  }
}
