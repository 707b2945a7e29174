import { structuredPatch } from "diff";
import type { FileDiff } from "../../lib/api/compare.js";

/**
 * The change from `before` to `after` of the text file at `path`, in the shape the hub's comparisons have
 * (DiffView shows either): unified hunks with three lines of context, and the lines added and removed.
 * Undefined when nothing changed.
 */
export function textFileDiff(path: string, before: string, after: string): FileDiff | undefined {
  if (before === after) return undefined;
  const { hunks } = structuredPatch(path, path, before, after, "", "", { context: 3 });
  let additions = 0;
  let deletions = 0;
  const lines: string[] = [];
  for (const hunk of hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
      lines.push(line);
    }
  }
  return {
    path,
    status: "modified",
    lfs: false,
    binary: false,
    additions,
    deletions,
    patch: lines.join("\n"),
  };
}
