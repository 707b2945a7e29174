import type { Context } from "hono";
import type { ComparisonView } from "../api/types.js";
import { InvalidInputError } from "../errors.js";
import { queryOne } from "../http/query.js";
import type { RepoReadDeps } from "./read-routes.js";
import { assignedRepo, type RepoApiPath } from "./repo-assignment.js";

/**
 * GET /api/{type}s/{id}/compare/{base}..{head}: `git diff base head` as text, or as JSON with `?format=json`.
 * `compare/{rev}` alone is the diff of that commit against its first parent (the initial commit: against
 * nothing). Revisions are branches, tags, `refs/...` (URL-encoded) or commit ids.
 */
export async function repoCompare(deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  const { repo } = assignedRepo(c);
  const spec = target.rest.join("/");
  if (!spec)
    throw new InvalidInputError("Name what to compare: compare/{base}..{head} or compare/{revision}.");
  const format = queryOne(c, "format") ?? "text";
  if (format !== "text" && format !== "json") throw new InvalidInputError('"format" must be text or json.');
  const cut = spec.indexOf("..");
  let base: ComparisonView["base"];
  let head: ComparisonView["head"];
  if (cut === -1) {
    head = { revision: spec, oid: (await deps.repos.resolveOrThrow(repo, spec)).commitOid };
    const parent = (await deps.repos.commitRecord(repo, head.oid))?.parents[0];
    base = parent ? { revision: parent, oid: parent } : null;
  } else {
    const [from, to] = [spec.slice(0, cut), spec.slice(cut + 2)];
    if (!from || !to || to.startsWith(".")) throw new InvalidInputError("Expected compare/{base}..{head}.");
    base = { revision: from, oid: (await deps.repos.resolveOrThrow(repo, from)).commitOid };
    head = { revision: to, oid: (await deps.repos.resolveOrThrow(repo, to)).commitOid };
  }
  const prs = deps.discussions.pullRequests;
  const diff = await prs.diffBetween(repo, base?.oid, head.oid);
  if (format === "json")
    return c.json({ base, head, files: diff.files, truncated: diff.truncated } satisfies ComparisonView);
  c.header("Content-Type", "text/plain; charset=utf-8");
  return c.body(prs.gitDiffText(diff));
}
