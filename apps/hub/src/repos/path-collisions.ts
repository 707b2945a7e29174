import { InvalidInputError } from "../errors.js";
import { HFS_IGNORED } from "./repo-path.js";

/**
 * A path name as a case-insensitive, normalization-insensitive file system compares it: HFS+ ignorables
 * dropped, composed (NFC: macOS writes NFD, others NFC, both mean the same name), then case-folded. Upper then
 * lower case approximates Unicode full case folding, which is stricter than NTFS's simple upcase table on
 * purpose: "straße" and "STRASSE", "Σ", "σ" and "ς" are one name too (APFS folds them together).
 */
function foldName(name: string): string {
  return name.replace(HFS_IGNORED, "").normalize("NFC").toUpperCase().toLowerCase().normalize("NFC");
}

/** Names that fold to themselves lower-cased: ASCII has no ignorables, no composition, simple case. */
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Calls `visit` with each folder and the file of `path` ("a", "a/b", "a/b/c.txt") and its folded form, from
 * the top, until `visit` returns false. Runs over every path of the tree at each commit, so the common case
 * (ASCII) folds without normalizing, and a path leaves as soon as a folder of it is of no interest.
 */
function forEachEntry(path: string, visit: (entry: string, folded: string) => boolean): void {
  if (ASCII.test(path)) {
    for (let cut = path.indexOf("/"); cut >= 0; cut = path.indexOf("/", cut + 1)) {
      const entry = path.slice(0, cut);
      if (!visit(entry, entry.toLowerCase())) return;
    }
    visit(path, path.toLowerCase());
    return;
  }
  // Folding a segment never yields nor absorbs a "/": segments fold one by one and prefixes stay aligned.
  const segments = path.split("/");
  let entry = "";
  let folded = "";
  for (const [i, segment] of segments.entries()) {
    entry = i === 0 ? segment : `${entry}/${segment}`;
    folded = i === 0 ? foldName(segment) : `${folded}/${foldName(segment)}`;
    if (!visit(entry, folded)) return;
  }
}

/**
 * Refuses a tree in which a written path (or one of its folders) and another entry differ only by case or
 * Unicode normalization: on macOS and Windows both land on one file, so a download silently keeps one of
 * them (or, for ".gitattributes" and the like, the attacker's). `treePaths` are the files of the new tree (the
 * written ones included); `operations` the commit's, of which puts write a path. Only entries a written path
 * touches are compared, so a repository that already holds twins (from before this rule) can still take
 * other commits. Pure: the commit engine calls it with the tree it is about to record.
 */
export function assertNoPathTwins(
  treePaths: Iterable<string>,
  operations: Iterable<{ kind: string; path: string }>,
): void {
  /** Folded name of each entry a written path touches, and that written path (named in the error). */
  const touched = new Map<string, string>();
  for (const { kind, path } of operations) {
    if (kind !== "put") continue;
    forEachEntry(path, (_entry, folded) => {
      if (!touched.has(folded)) touched.set(folded, path);
      return true;
    });
  }
  if (touched.size === 0) return;
  /** The first entry of the tree seen under each touched folded name. */
  const seen = new Map<string, string>();
  let twins: [writtenPath: string, first: string, other: string] | undefined;
  for (const path of treePaths) {
    forEachEntry(path, (entry, folded) => {
      // Every folder of a touched entry is touched: below an untouched one, nothing is.
      const writtenPath = touched.get(folded);
      if (writtenPath === undefined) return false;
      const first = seen.get(folded);
      if (first === undefined) seen.set(folded, entry);
      else if (first !== entry) twins = [writtenPath, first, entry];
      return twins === undefined;
    });
    if (twins) {
      const [writtenPath, first, other] = twins;
      throw new InvalidInputError(
        `Invalid path ${JSON.stringify(writtenPath)}: ${JSON.stringify(first)} and ${JSON.stringify(other)} ` +
          "differ only by case or Unicode normalization, so they are one file on macOS and Windows. " +
          "Keep one of the names (delete or rename the other in the same commit).",
      );
    }
  }
}
