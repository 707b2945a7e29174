import { structuredPatch } from "diff";
import type { FileDiff } from "../api/types.js";
import type { BlobStore } from "../storage/blob-store.js";
import { lfsPointerText } from "./lfs-pointer.js";
import type { FileRecord } from "./repos-table.js";

export type { FileDiff };

/** A path whose content differs between two snapshots. */
export interface FileChange {
  path: string;
  status: "added" | "modified" | "deleted";
  before?: FileRecord;
  after?: FileRecord;
}

/** Text files larger than this are listed but not diffed line by line. */
export const TEXT_DIFF_LIMIT = 1024 * 1024;
/** A file's line diff gives up after this long (the whole file then shows as replaced). */
const DIFF_TIMEOUT_MS = 2000;
const CONTEXT_LINES = 3;

/** The files that differ between two snapshots, by path (content compared by git blob id). */
export function changedFiles(before: readonly FileRecord[], after: readonly FileRecord[]): FileChange[] {
  const old = new Map(before.map((file) => [file.path, file]));
  const changes: FileChange[] = [];
  for (const file of after) {
    const previous = old.get(file.path);
    old.delete(file.path);
    if (!previous) changes.push({ path: file.path, status: "added", after: file });
    else if (previous.blobOid !== file.blobOid) {
      changes.push({ path: file.path, status: "modified", before: previous, after: file });
    }
  }
  for (const file of old.values()) changes.push({ path: file.path, status: "deleted", before: file });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The text git diffs for a file: an LFS file's pointer (what git stores), a regular file's bytes; undefined
 * for binary or too-large content.
 */
async function diffableText(blobs: BlobStore, file: FileRecord | undefined): Promise<string | undefined> {
  if (!file) return "";
  if (file.lfs) return lfsPointerText(file.sha256, file.size);
  if (file.size > TEXT_DIFF_LIMIT) return undefined;
  if (file.size === 0) return "";
  const bytes = await blobs.read(file.sha256, { start: 0, end: file.size - 1 });
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  return bytes.toString("utf8");
}

function hunkRange(start: number, lines: number): string {
  // As git prints them: an empty side starts one line earlier, and a count of 1 is left out.
  const first = lines === 0 ? start - 1 : start;
  return lines === 1 ? `${first}` : `${first},${lines}`;
}

/** Git's default hunk heading: the last line before the hunk that starts with a letter, `_` or `$`. */
function hunkHeading(oldLines: readonly string[], before: number): string | undefined {
  for (let i = Math.min(before, oldLines.length) - 1; i >= 0; i--) {
    if (/^[A-Za-z_$]/.test(oldLines[i]!)) return oldLines[i]!.slice(0, 80).trimEnd();
  }
  return undefined;
}

function wholeFileHunk(before: string, after: string) {
  const split = (text: string) => (text === "" ? [] : text.replace(/\n$/, "").split("\n"));
  const removed = split(before);
  const added = split(after);
  return {
    oldStart: 1,
    oldLines: removed.length,
    newStart: 1,
    newLines: added.length,
    lines: [...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)],
  };
}

/** The diff of one changed file, with its unified hunks when both sides are text. */
export async function diffFile(blobs: BlobStore, change: FileChange): Promise<FileDiff> {
  const { before, after } = change;
  const base: FileDiff = {
    path: change.path,
    status: change.status,
    lfs: Boolean(after?.lfs ?? before?.lfs),
    ...(before ? { oldOid: before.blobOid, oldSize: before.size } : {}),
    ...(after ? { newOid: after.blobOid, newSize: after.size } : {}),
    binary: false,
    additions: 0,
    deletions: 0,
  };
  const [oldText, newText] = await Promise.all([diffableText(blobs, before), diffableText(blobs, after)]);
  if (oldText === undefined || newText === undefined) return { ...base, binary: true };
  const patch = structuredPatch(change.path, change.path, oldText, newText, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout: DIFF_TIMEOUT_MS,
  });
  const hunks = patch?.hunks ?? [wholeFileHunk(oldText, newText)];
  const oldLines = oldText.split("\n");
  let additions = 0;
  let deletions = 0;
  const text: string[] = [];
  for (const hunk of hunks) {
    const heading = hunkHeading(oldLines, hunk.oldStart - 1);
    text.push(
      `@@ -${hunkRange(hunk.oldStart, hunk.oldLines)} +${hunkRange(hunk.newStart, hunk.newLines)} @@${heading ? ` ${heading}` : ""}`,
    );
    for (const line of hunk.lines) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
      text.push(line);
    }
  }
  return { ...base, additions, deletions, ...(text.length ? { patch: `${text.join("\n")}\n` } : {}) };
}

const shortOid = (oid: string | undefined) => (oid ?? "0".repeat(40)).slice(0, 7);

/** One file's section of `git diff` output: the `diff --git` header, then the hunks or a binary notice. */
export function gitDiffSection(diff: FileDiff): string {
  const a = `a/${diff.path}`;
  const b = `b/${diff.path}`;
  const lines = [`diff --git ${a} ${b}`];
  if (diff.status === "added") lines.push("new file mode 100644");
  if (diff.status === "deleted") lines.push("deleted file mode 100644");
  const index = `index ${shortOid(diff.oldOid)}..${shortOid(diff.newOid)}`;
  lines.push(diff.status === "modified" ? `${index} 100644` : index);
  const from = diff.status === "added" ? "/dev/null" : a;
  const to = diff.status === "deleted" ? "/dev/null" : b;
  if (diff.binary) {
    lines.push(`Binary files ${from} and ${to} differ`);
    return `${lines.join("\n")}\n`;
  }
  if (!diff.patch) return `${lines.join("\n")}\n`;
  lines.push(`--- ${from}`, `+++ ${to}`);
  return `${lines.join("\n")}\n${diff.patch}`;
}
