import { InvalidInputError } from "../errors.js";

/** Longest path and longest single name a repository accepts (bytes, as most filesystems count). */
export const MAX_PATH_BYTES = 1024;
export const MAX_NAME_BYTES = 255;

/** Names that would confuse git or this hub if they appeared as a path segment. */
const RESERVED_SEGMENTS = new Set([".", "..", ".git"]);

/**
 * Checks a file path inside a repository and returns it unchanged: relative, "/"-separated, no empty, "." or
 * ".." segments, no ".git" directory, no backslashes, control characters or NUL, within length limits.
 * Anything else is refused with a 400 naming the problem, before anything is written.
 */
export function parseRepoPath(path: unknown, what = "path"): string {
  if (typeof path !== "string" || path.length === 0) throw new InvalidInputError(`A ${what} is required.`);
  const shown = JSON.stringify(path.slice(0, 200));
  const refuse = (why: string): never => {
    throw new InvalidInputError(`Invalid ${what} ${shown}: ${why}.`);
  };
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) refuse(`longer than ${MAX_PATH_BYTES} bytes`);
  if (path.startsWith("/")) refuse("absolute paths are not allowed");
  if (path.includes("\\")) refuse('backslashes are not allowed (use "/")');
  if (/[\u0000-\u001f\u007f]/.test(path)) refuse("control characters (including NUL) are not allowed");
  for (const segment of path.split("/")) {
    if (segment === "") refuse("empty path segments are not allowed");
    if (RESERVED_SEGMENTS.has(segment)) refuse(`"${segment}" is a reserved name`);
    if (Buffer.byteLength(segment) > MAX_NAME_BYTES) refuse(`a name is longer than ${MAX_NAME_BYTES} bytes`);
  }
  return path;
}

/** A folder path as clients send it for deletions and listings: like a file path, trailing "/" allowed. */
export function parseFolderPath(path: unknown): string {
  const text = typeof path === "string" ? path.replace(/\/+$/, "") : path;
  return parseRepoPath(text, "folder path");
}
