import ignore, { type Ignore } from "ignore";

/** The most of a `.gitignore` the hub reads: a larger one is not a list of patterns anyone maintains by hand. */
export const MAX_GITIGNORE_BYTES = 1024 * 1024;

/**
 * Which paths a `.gitignore` at the repository's root excludes, with git's rules (negations, anchoring, `**`,
 * directory patterns excluding everything below them) as the `ignore` package implements them. The preupload
 * answer's `shouldIgnore` comes from it; huggingface_hub then leaves those files out of the commit.
 */
export function gitignoreMatcher(content: string): (path: string) => boolean {
  const rules: Ignore = ignore({ allowRelativePaths: true }).add(content);
  return (path) => rules.ignores(path);
}
