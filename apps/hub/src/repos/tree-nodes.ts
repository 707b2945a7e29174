import { createHash } from "node:crypto";

/**
 * A repository's snapshots as immutable tree nodes (docs/decisions/tree-nodes.md), one per folder,
 * stored per repository and shared between its commits: a commit that changes one file writes the nodes on
 * that file's path, not the file list. A node's id is the sha256 of its stored text, which holds each file's
 * sha256, size and LFS flag (not only its git blob id): a path resolves to exactly what its commit recorded.
 * Each node also keeps its folder's git tree id, so listings and commits show git's ids without recomputing
 * them. A large folder's entries are split into pages at content-defined boundaries, so a one-entry change
 * rewrites one page and the folder's list of pages, not every entry.
 *
 * Stored text (JSON): a folder `{"t": treeOid, "e": [entry...]}` or `{"t": treeOid, "p": [[firstName, pageId]...]}`,
 * a page `{"e": [entry...]}`; a file entry `[name, blobOid, sha256, size, lfs 0|1]`, a folder entry
 * `[name, nodeId, treeOid]`. Entries in code point order of their names (UTF-8 byte order, as SQLite and
 * PostgreSQL's "C" collation order paths). The boundary rule below is part of the format: changing it changes
 * node ids (which only costs sharing with older nodes, never correctness).
 */

export interface FileEntry {
  name: string;
  blobOid: string;
  sha256: string;
  size: number;
  lfs: boolean;
}

export interface FolderEntry {
  name: string;
  /** The folder's node id. */
  node: string;
  /** The folder's git tree id. */
  tree: string;
}

export type NodeEntry = FileEntry | FolderEntry;

export const isFolderEntry = (entry: NodeEntry): entry is FolderEntry => "node" in entry;

/** A page of a large folder: the first name it holds and its node id. */
export interface PageRef {
  first: string;
  id: string;
}

/** A stored node, parsed: a folder (`tree` set) with its entries or its pages, or a page (entries only). */
export interface TreeNode {
  tree?: string;
  entries?: NodeEntry[];
  pages?: PageRef[];
}

/** A node to store: its id and its text. */
export interface EncodedNode {
  id: string;
  body: string;
}

/** Folders with more entries than this are paged. */
export const PAGING_THRESHOLD = 256;
/** A boundary follows an entry whose name hashes to 0 modulo this: pages of about this many entries. */
const BOUNDARY_MODULUS = 64;
/** A page ends here even without a boundary (names chosen to avoid boundaries only cost their own folder). */
const MAX_PAGE_ENTRIES = 1024;

/** Code point order (= UTF-8 byte order): JS's `<` compares UTF-16 units, which differs past U+FFFF. */
export function compareNames(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codeUnitRank(x) - codeUnitRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (U+D800-DFFF, astral code points) rank above U+E000-FFFF, as their code points do. */
function codeUnitRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit >= 0xd800 ? unit + 0x2000 : unit;
}

export const comparePaths = compareNames;

/** FNV-1a over the name's UTF-16 units, then murmur3's finalizer (its low bits decide boundaries). */
function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

const encodeEntry = (entry: NodeEntry): unknown[] =>
  isFolderEntry(entry)
    ? [entry.name, entry.node, entry.tree]
    : [entry.name, entry.blobOid, entry.sha256, entry.size, entry.lfs ? 1 : 0];

function decodeEntry(raw: unknown[]): NodeEntry {
  if (raw.length === 3) return { name: raw[0] as string, node: raw[1] as string, tree: raw[2] as string };
  return {
    name: raw[0] as string,
    blobOid: raw[1] as string,
    sha256: raw[2] as string,
    size: Number(raw[3]),
    lfs: raw[4] === 1,
  };
}

function encoded(value: unknown): EncodedNode {
  const body = JSON.stringify(value);
  return { id: createHash("sha256").update(body).digest("hex"), body };
}

export function decodeNode(body: string): TreeNode {
  const raw = JSON.parse(body) as { t?: string; e?: unknown[][]; p?: [string, string][] };
  return {
    ...(raw.t !== undefined ? { tree: raw.t } : {}),
    ...(raw.e ? { entries: raw.e.map(decodeEntry) } : {}),
    ...(raw.p ? { pages: raw.p.map(([first, id]) => ({ first, id })) } : {}),
  };
}

/** A page of a folder being sealed: its entries, and its id when it is a stored page kept as it was. */
export interface PageDraft {
  entries: NodeEntry[];
  id?: string;
}

/** Cuts pages as entries arrive in order: after a boundary entry, or at the maximum size. */
function pageCutter() {
  const pages: PageDraft[] = [];
  let page: NodeEntry[] = [];
  return {
    pages,
    feed(entry: NodeEntry) {
      page.push(entry);
      if (nameHash(entry.name) % BOUNDARY_MODULUS === 0 || page.length >= MAX_PAGE_ENTRIES) {
        pages.push({ entries: page });
        page = [];
      }
    },
    /** True when the last entry fed ended a page (the next one starts a page). */
    get atCut() {
      return page.length === 0;
    },
    push(stored: PageDraft) {
      pages.push(stored);
    },
    finish(): PageDraft[] {
      if (page.length) pages.push({ entries: page });
      page = [];
      return pages;
    },
  };
}

/** Splits entries sorted by compareNames into pages at content-defined boundaries. */
export function paginate(entries: readonly NodeEntry[]): PageDraft[] {
  const cutter = pageCutter();
  for (const entry of entries) cutter.feed(entry);
  return cutter.finish();
}

/**
 * The pages `paginate` would give a stored folder's entries after `touched` names changed (`current` gives
 * each one's entry now, undefined when deleted), cutting again only the pages a change falls in (and the
 * following ones while a cut moved): a page that starts at a cut and holds no change is kept, id and all.
 */
export function repaginate(
  before: readonly { id: string; entries: NodeEntry[] }[],
  current: (name: string) => NodeEntry | undefined,
  touched: Iterable<string>,
): PageDraft[] {
  const changesByPage = new Map<number, string[]>();
  const firsts = before.map((page) => ({ first: page.entries[0]!.name, id: page.id }));
  for (const name of touched) {
    const page = pageFor(firsts, name);
    const index = page ? firsts.indexOf(page) : 0;
    changesByPage.set(index, [...(changesByPage.get(index) ?? []), name]);
  }
  const cutter = pageCutter();
  for (const [index, page] of before.entries()) {
    const changes = changesByPage.get(index);
    if (!changes && cutter.atCut) {
      cutter.push(page);
      continue;
    }
    let entries = page.entries;
    if (changes) {
      const changed = new Set(changes);
      entries = entries.filter((entry) => !changed.has(entry.name));
      for (const name of changed) {
        const entry = current(name);
        if (entry) entries.push(entry);
      }
      entries.sort((a, b) => compareNames(a.name, b.name));
    }
    for (const entry of entries) cutter.feed(entry);
  }
  return cutter.finish();
}

/**
 * The nodes of one folder from its pages (in order): its own node (first) and, for a large folder, its pages
 * not stored yet. A folder of few entries keeps them in its own node. Parsed forms are returned alongside,
 * for the cache.
 */
export function encodeFolder(
  tree: string,
  pages: readonly PageDraft[],
): { id: string; nodes: { node: EncodedNode; parsed: TreeNode }[] } {
  const count = pages.reduce((sum, page) => sum + page.entries.length, 0);
  if (count <= PAGING_THRESHOLD) {
    const entries = pages.flatMap((page) => page.entries);
    const node = encoded({ t: tree, e: entries.map(encodeEntry) });
    return { id: node.id, nodes: [{ node, parsed: { tree, entries } }] };
  }
  const fresh: { node: EncodedNode; parsed: TreeNode }[] = [];
  const refs = pages.map((page) => {
    let id = page.id;
    if (id === undefined) {
      const node = encoded({ e: page.entries.map(encodeEntry) });
      fresh.push({ node, parsed: { entries: page.entries } });
      id = node.id;
    }
    return { first: page.entries[0]!.name, id };
  });
  const node = encoded({ t: tree, p: refs.map((ref) => [ref.first, ref.id]) });
  return { id: node.id, nodes: [{ node, parsed: { tree, pages: refs } }, ...fresh] };
}

/** The page of `pages` that would hold `name` (the last whose first name is not after it). */
export function pageFor(pages: readonly PageRef[], name: string): PageRef | undefined {
  let low = 0;
  let high = pages.length - 1;
  let found: PageRef | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (compareNames(pages[middle]!.first, name) <= 0) {
      found = pages[middle];
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}
