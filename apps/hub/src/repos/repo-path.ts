import { InvalidInputError, UnprocessableError } from "../errors.js";

/** Longest path and longest single name a repository accepts (bytes, as most filesystems count). */
export const MAX_PATH_BYTES = 1024;
export const MAX_NAME_BYTES = 255;

/** Names that would confuse git or this hub if they appeared as a path segment. */
const RESERVED_SEGMENTS = new Set([".", ".."]);

/**
 * Code points HFS+ skips when it compares names (git's `next_hfs_char`): ".g\u200cit" is ".git" on a Mac.
 * U+200C-U+200F, U+202A-U+202E, U+206A-U+206F and U+FEFF.
 */
export const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * Whether g, i and t appear in that order, any case: every disguise of `.git` only adds characters to
 * ".git" / "git~N", so a segment without them is none. One pass (a regular expression such as /g.*i.*t/
 * backtracks: ~120 ms on one 1 KiB segment of g's and i's, a path anyone may send).
 */
function maySpellGit(segment: string): boolean {
  const lower = segment.toLowerCase();
  const g = lower.indexOf("g");
  if (g < 0) return false;
  const i = lower.indexOf("i", g + 1);
  return i >= 0 && lower.indexOf("t", i + 1) >= 0;
}

/**
 * Whether a path segment names the `.git` directory on some file system a client may download into: git's
 * `is_ntfs_dotgit` and `is_hfs_dotgit` together, and stricter. Any case (case-insensitive file systems); HFS+
 * ignorable code points anywhere; trailing dots and spaces and an NTFS stream suffix (`.git. `, `.git::$DATA`:
 * Windows drops or resolves them); the 8.3 short name `GIT~N` for any N (git checks only `~1`, but `.git` gets
 * `GIT~2` and on when other `git*` names came first).
 */
export function isDotGitSegment(segment: string): boolean {
  // Most names cannot spell it, and this check runs on every path segment of every file read.
  if (!maySpellGit(segment)) return false;
  const name = segment
    .replace(HFS_IGNORED, "")
    .replace(/:.*$/s, "")
    .replace(/[. ]+$/, "")
    .toLowerCase();
  return name === ".git" || /^git~[0-9]+$/.test(name);
}

/**
 * Checks a file path inside a repository and returns it unchanged: relative, "/"-separated, no empty, "." or
 * ".." segments, no ".git" directory in any disguise (isDotGitSegment), no backslashes, control characters or NUL, within length limits.
 * Anything else is refused with a 400 naming the problem, before anything is written.
 */
export function parseRepoPath(path: unknown, what = "path"): string {
  if (typeof path !== "string" || path.length === 0) throw new InvalidInputError(`A ${what} is required.`);
  // Quoted only when refused: a valid path (every file read) does not pay for it.
  const shown = () => JSON.stringify(path.slice(0, 200));
  const refuse = (why: string): never => {
    throw new InvalidInputError(`Invalid ${what} ${shown()}: ${why}.`);
  };
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) refuse(`longer than ${MAX_PATH_BYTES} bytes`);
  if (path.startsWith("/")) refuse("absolute paths are not allowed");
  // 422 as on the public hub (huggingface_hub's tests upload "..\\ddd" and expect it): a Windows client
  // would read the backslash as a separator, and "..\\" climb out of its download folder.
  if (path.includes("\\")) {
    throw new UnprocessableError(`Invalid ${what} ${shown()}: backslashes are not allowed (use "/").`);
  }
  if (/[\u0000-\u001f\u007f]/.test(path)) refuse("control characters (including NUL) are not allowed");
  for (const segment of path.split("/")) {
    if (segment === "") refuse("empty path segments are not allowed");
    if (RESERVED_SEGMENTS.has(segment)) refuse(`"${segment}" is a reserved name`);
    if (isDotGitSegment(segment)) {
      refuse(
        `${JSON.stringify(segment)} is a reserved name: git's ".git" directory on macOS or Windows file systems` +
          " (a download would write into it)",
      );
    }
    if (Buffer.byteLength(segment) > MAX_NAME_BYTES) refuse(`a name is longer than ${MAX_NAME_BYTES} bytes`);
  }
  return path;
}

/** A folder path as clients send it for deletions and listings: like a file path, trailing "/" allowed. */
export function parseFolderPath(path: unknown): string {
  const text = typeof path === "string" ? path.replace(/\/+$/, "") : path;
  return parseRepoPath(text, "folder path");
}
