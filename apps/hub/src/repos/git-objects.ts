import { createHash, type Hash } from "node:crypto";
import { compareNames } from "./tree-nodes.js";

/**
 * Git object ids computed exactly as git does (SHA-1 over "<type> <length>\0" + body), so the ids this hub
 * reports (blob ids, tree ids, commit ids) are the ones `git` would compute for the same content.
 */

export const REGULAR_FILE_MODE = "100644";
export const TREE_MODE = "40000";

function objectId(type: "blob" | "tree" | "commit", body: Uint8Array): string {
  return createHash("sha1").update(`${type} ${body.byteLength}\0`).update(body).digest("hex");
}

/** The git blob id of a file's bytes. */
export function gitBlobId(content: Uint8Array): string {
  return objectId("blob", content);
}

/** Hashes a blob incrementally when its length is known first (streamed uploads). */
export function gitBlobHasher(size: number): Hash {
  return createHash("sha1").update(`blob ${size}\0`);
}

export interface TreeEntry {
  name: string;
  mode: typeof REGULAR_FILE_MODE | typeof TREE_MODE;
  oid: string;
}

/**
 * Git orders tree entries by name as bytes (UTF-8 byte order is code point order), a directory comparing as
 * if its name ended with "/". Keys are compared as strings and the body written into one buffer: a folder of
 * 20,000 entries is hashed on every commit that changes it.
 */
export function gitTreeId(entries: readonly TreeEntry[]): string {
  const keyed = entries.map((entry) => ({
    entry,
    key: entry.mode === TREE_MODE ? `${entry.name}/` : entry.name,
  }));
  keyed.sort((a, b) => compareNames(a.key, b.key));
  let length = 0;
  for (const { entry } of keyed) length += entry.mode.length + Buffer.byteLength(entry.name) + 22;
  const body = Buffer.allocUnsafe(length);
  let at = 0;
  for (const { entry } of keyed) {
    at += body.write(`${entry.mode} ${entry.name}\0`, at, "utf8");
    at += body.write(entry.oid, at, "hex");
  }
  return objectId("tree", body.subarray(0, at));
}

/**
 * Every directory's tree id for a flat snapshot (path -> blob id): a map from directory path ("" for the
 * root) to its tree id, computed bottom-up as git builds trees.
 */
export function buildTreeIds(files: ReadonlyMap<string, string>): Map<string, string> {
  const children = new Map<string, Map<string, TreeEntry>>();
  const dirEntries = (dir: string) => {
    let entries = children.get(dir);
    if (!entries) {
      entries = new Map();
      children.set(dir, entries);
    }
    return entries;
  };
  dirEntries("");
  for (const [path, oid] of files) {
    const slash = path.lastIndexOf("/");
    const dir = slash < 0 ? "" : path.slice(0, slash);
    dirEntries(dir).set(path.slice(slash + 1), { name: path.slice(slash + 1), mode: REGULAR_FILE_MODE, oid });
    // Make sure every ancestor directory exists.
    for (let parent = dir; parent !== ""; ) {
      const cut = parent.lastIndexOf("/");
      const up = cut < 0 ? "" : parent.slice(0, cut);
      dirEntries(up);
      parent = up;
    }
  }
  // Deepest directories first, so a parent sees its children's ids.
  const dirs = [...children.keys()].sort((a, b) => depth(b) - depth(a));
  const ids = new Map<string, string>();
  for (const dir of dirs) {
    const entries = children.get(dir)!;
    const id = gitTreeId([...entries.values()]);
    ids.set(dir, id);
    if (dir !== "") {
      const cut = dir.lastIndexOf("/");
      const parent = cut < 0 ? "" : dir.slice(0, cut);
      const name = dir.slice(cut + 1);
      dirEntries(parent).set(name, { name, mode: TREE_MODE, oid: id });
    }
  }
  return ids;
}

function depth(dir: string): number {
  return dir === "" ? 0 : dir.split("/").length;
}

export interface CommitObject {
  tree: string;
  parents: readonly string[];
  author: { name: string; email: string };
  /** Seconds since the epoch. */
  time: number;
  /** Title, then a blank line and the description when there is one. */
  message: string;
}

export function gitCommitBody(commit: CommitObject): string {
  const signature = `${commit.author.name} <${commit.author.email}> ${commit.time} +0000`;
  const lines = [`tree ${commit.tree}`, ...commit.parents.map((parent) => `parent ${parent}`)];
  lines.push(`author ${signature}`, `committer ${signature}`, "", commit.message);
  return `${lines.join("\n")}\n`;
}

export function gitCommitId(commit: CommitObject): string {
  return objectId("commit", Buffer.from(gitCommitBody(commit)));
}
