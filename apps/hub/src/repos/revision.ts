import { InvalidInputError } from "../errors.js";

/** A branch or tag name as git allows it (a subset: no "..", no control characters, no "~^:?*[\\"). */
const REF_NAME =
  /^(?!.*\.\.)(?!.*\/\/)(?!.*@\{)(?!\/)(?!.*\/$)(?!.*\.lock$)[^\s~^:?*[\\\u0000-\u001f\u007f]{1,200}$/;

export function parseRefName(name: unknown, what: "branch" | "tag"): string {
  if (typeof name === "string" && name.startsWith("refs/")) {
    // The public hub's words (huggingface_hub's tests match them): refs/pr/N and other refs are not branches.
    throw new InvalidInputError(
      `Invalid reference for a ${what}: ${JSON.stringify(name.slice(0, 100))}. Give a plain name, without refs/.`,
    );
  }
  if (typeof name !== "string" || !REF_NAME.test(name) || name.startsWith("-")) {
    throw new InvalidInputError(`Invalid ${what} name ${JSON.stringify(String(name).slice(0, 100))}.`);
  }
  return name;
}

export const branchRef = (name: string) => `refs/heads/${name}`;
export const tagRef = (name: string) => `refs/tags/${name}`;
export const prRef = (num: number) => `refs/pr/${num}`;

export const COMMIT_ID = /^[0-9a-f]{40}$/;
/** An abbreviated commit id, as git prints them (7 characters at least): resolved when one commit has it. */
export const SHORT_COMMIT_ID = /^[0-9a-f]{7,39}$/;

/** The full ref names a revision may mean, in the order the public hub tries them. */
export function refCandidates(revision: string): string[] {
  if (revision.startsWith("refs/")) return [revision];
  // HEAD is the default branch, as in git (@huggingface/hub asks for /revision/HEAD).
  if (revision === "HEAD") return [branchRef("main")];
  return [branchRef(revision), tagRef(revision)];
}

/**
 * Splits path segments that begin with a revision: `refs/pr/N` and `refs/convert/X` may come unencoded (as
 * @huggingface/hub's listFiles sends them), so they take three segments; any other revision takes one.
 */
export function splitRevision(segments: readonly string[]): { revision?: string; rest: string[] } {
  if (segments[0] === "refs" && (segments[1] === "pr" || segments[1] === "convert") && segments.length >= 3) {
    return { revision: segments.slice(0, 3).join("/"), rest: segments.slice(3) };
  }
  return { revision: segments[0], rest: segments.slice(1) };
}
