import type { Queryable } from "../store/database.js";
import type { SealedNode } from "./tree-draft.js";
import { type TreeNodeCache, treeNodeCache } from "./tree-node-cache.js";
import {
  comparePaths,
  decodeNode,
  type FileEntry,
  type FolderEntry,
  isFolderEntry,
  type NodeEntry,
  pageFor,
  type TreeNode,
} from "./tree-nodes.js";

/** Node ids per `IN (...)` read and nodes per multi-row insert: few round trips, far below parameter limits. */
const READ_BATCH = 200;
const WRITE_BATCH = 50;

/** A stored tree node the database does not hold: the snapshot is broken, not merely missing a path. */
export class TreeNodeMissingError extends Error {
  constructor(repo: number, id: string) {
    super(`Tree node ${id} of repository ${repo} is not stored.`);
    this.name = "TreeNodeMissingError";
  }
}

const join = (folder: string, name: string) => (folder === "" ? name : `${folder}/${name}`);

/**
 * Reading and writing a repository's tree nodes (tree-nodes.ts): a path is resolved through the nodes on it
 * (each from the cache or one indexed read), a listing reads a subtree level by level in batches.
 */
export function createTreeNodesTable(q: Queryable, cache: TreeNodeCache = treeNodeCache) {
  async function nodes(repo: number, ids: readonly string[]): Promise<Map<string, TreeNode>> {
    const found = new Map<string, TreeNode>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const cached = cache.get(repo, id);
      if (cached) found.set(id, cached);
      else missing.push(id);
    }
    for (let at = 0; at < missing.length; at += READ_BATCH) {
      const batch = missing.slice(at, at + READ_BATCH);
      const rows = await q.all<{ id: string; body: string }>(
        `SELECT id, body FROM tree_nodes WHERE repo_id = ? AND id IN (${batch.map(() => "?").join(", ")})`,
        [repo, ...batch],
      );
      for (const row of rows) {
        const node = decodeNode(row.body);
        cache.set(repo, row.id, node);
        found.set(row.id, node);
      }
    }
    for (const id of ids) if (!found.has(id)) throw new TreeNodeMissingError(repo, id);
    return found;
  }

  const node = async (repo: number, id: string): Promise<TreeNode> => (await nodes(repo, [id])).get(id)!;

  /** Every entry of a folder node, its pages read in one batch. */
  async function entriesOf(repo: number, folder: TreeNode): Promise<NodeEntry[]> {
    if (!folder.pages) return folder.entries ?? [];
    const pages = await nodes(
      repo,
      folder.pages.map((page) => page.id),
    );
    return folder.pages.flatMap((page) => pages.get(page.id)!.entries ?? []);
  }

  /** A paged folder node's pages with their entries, read in one batch. */
  async function pagesOf(repo: number, folder: TreeNode): Promise<{ id: string; entries: NodeEntry[] }[]> {
    if (!folder.pages) return [];
    const pages = await nodes(
      repo,
      folder.pages.map((page) => page.id),
    );
    return folder.pages.map((page) => ({ id: page.id, entries: pages.get(page.id)!.entries ?? [] }));
  }

  /** One entry of a folder node: for a paged folder, only the page that would hold it is read. */
  async function entryIn(repo: number, folder: TreeNode, name: string): Promise<NodeEntry | undefined> {
    let entries = folder.entries;
    if (folder.pages) {
      const page = pageFor(folder.pages, name);
      if (!page) return undefined;
      entries = (await node(repo, page.id)).entries;
    }
    return entries?.find((entry) => entry.name === name);
  }

  /** The entry at `path` under a root folder ("" is the root itself), or undefined. */
  async function entryAt(repo: number, root: FolderEntry, path: string): Promise<NodeEntry | undefined> {
    if (path === "") return root;
    let current: NodeEntry = root;
    for (const segment of path.split("/")) {
      if (!isFolderEntry(current)) return undefined;
      const found = await entryIn(repo, await node(repo, current.node), segment);
      if (!found) return undefined;
      current = found;
    }
    return current;
  }

  /** Every file and folder strictly under the folder `start` (at `path`), read level by level in batches. */
  async function subtree(
    repo: number,
    start: FolderEntry,
    path: string,
  ): Promise<{ files: (FileEntry & { path: string })[]; folders: Map<string, string> }> {
    const files: (FileEntry & { path: string })[] = [];
    const folders = new Map<string, string>();
    let level = [{ path, node: start.node }];
    while (level.length) {
      const read = await nodes(
        repo,
        level.map((folder) => folder.node),
      );
      const next: { path: string; node: string }[] = [];
      for (const folder of level) {
        for (const entry of await entriesOf(repo, read.get(folder.node)!)) {
          const entryPath = join(folder.path, entry.name);
          if (isFolderEntry(entry)) {
            folders.set(entryPath, entry.tree);
            next.push({ path: entryPath, node: entry.node });
          } else {
            files.push({ ...entry, path: entryPath });
          }
        }
      }
      level = next;
    }
    // Level by level is path order within one folder (the large flat case): sort only when it is not.
    const inOrder = files.every((file, i) => i === 0 || comparePaths(files[i - 1]!.path, file.path) < 0);
    if (!inOrder) files.sort((a, b) => comparePaths(a.path, b.path));
    return { files, folders };
  }

  return {
    node,
    entriesOf,
    pagesOf,
    entryAt,
    subtree,
    /** Stores nodes a commit sealed (those already stored are left as they are: same id, same text). */
    async write(repo: number, sealed: readonly SealedNode[]): Promise<void> {
      for (let at = 0; at < sealed.length; at += WRITE_BATCH) {
        const batch = sealed.slice(at, at + WRITE_BATCH);
        await q.run(
          `INSERT INTO tree_nodes (repo_id, id, body) VALUES ${batch.map(() => "(?, ?, ?)").join(", ")}
           ON CONFLICT DO NOTHING`,
          batch.flatMap(({ node: written }) => [repo, written.id, written.body]),
        );
      }
      for (const { node: written, parsed } of sealed) cache.set(repo, written.id, parsed);
    },
  };
}

export type TreeNodesTable = ReturnType<typeof createTreeNodesTable>;
