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

/** Each folder and the file of `path` ("a", "a/b", "a/b/c.txt"), with its folded form. */
function* entries(path: string): Generator<[string, string]> {
  // Folding a segment never yields nor absorbs a "/": segments fold one by one and prefixes stay aligned.
  const folded = path.split("/").map(foldName);
  let original = -1;
  for (let i = 0; i < folded.length; i++) {
    original = path.indexOf("/", original + 1);
    yield [original < 0 ? path : path.slice(0, original), folded.slice(0, i + 1).join("/")];
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
    for (const [, folded] of entries(path)) if (!touched.has(folded)) touched.set(folded, path);
  }
  if (touched.size === 0) return;
  /** The first entry of the tree seen under each touched folded name. */
  const seen = new Map<string, string>();
  for (const path of treePaths) {
    for (const [entry, folded] of entries(path)) {
      const writtenPath = touched.get(folded);
      if (writtenPath === undefined) continue;
      const first = seen.get(folded);
      if (first === undefined) seen.set(folded, entry);
      else if (first !== entry) {
        throw new InvalidInputError(
          `Invalid path ${JSON.stringify(writtenPath)}: ${JSON.stringify(first)} and ${JSON.stringify(entry)} ` +
            "differ only by case or Unicode normalization, so they are one file on macOS and Windows. " +
            "Keep one of the names (delete or rename the other in the same commit).",
        );
      }
    }
  }
}
