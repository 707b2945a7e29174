import type { Context } from "hono";
import { UnavailableError } from "../errors.js";
import type { RepoReadDeps } from "./read-routes.js";
import { assignedRepo, assignedRevision, type RepoApiPath } from "./repo-assignment.js";
import { parseRepoPath } from "./repo-path.js";
import { actorName } from "./repo-target.js";
import type { RepoScanning } from "./scan-port.js";

function scanningOf(deps: RepoReadDeps): RepoScanning {
  if (!deps.scanning) throw new UnavailableError("This hub runs no content scanner.");
  return deps.scanning;
}

/**
 * GET /api/{type}s/{id}/scan/{rev}/{path}: one file's full scan report (imports, findings with their
 * messages, antivirus, the policy and any opt-in), for its page. Read with the file's own rights: a gated
 * repository's reports are gated as its files are.
 */
export async function scanReport(deps: RepoReadDeps, c: Context, _target: RepoApiPath): Promise<Response> {
  const scanning = scanningOf(deps);
  const { repo } = assignedRepo(c);
  const { commitOid, path } = assignedRevision(c);
  const file = await deps.repos.file(repo, commitOid, parseRepoPath(path.join("/")));
  return c.json(await scanning.report(repo, file));
}

/**
 * POST /api/{type}s/{id}/scan-allow/{rev}/{path}: an owner or admin opts in to serving this file although it
 * was found unsafe (SCAN_POLICY=block); who and when are recorded. Answers the report as it now stands.
 */
export async function scanAllow(deps: RepoReadDeps, c: Context, _target: RepoApiPath): Promise<Response> {
  const scanning = scanningOf(deps);
  const { repo, actor } = assignedRepo(c);
  const { commitOid, path } = assignedRevision(c);
  const file = await deps.repos.file(repo, commitOid, parseRepoPath(path.join("/")));
  return c.json(await scanning.allow(repo, file, actorName(actor)));
}
