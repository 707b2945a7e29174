import type { Context } from "hono";
import { RevisionNotFoundError } from "../errors.js";
import { queryBoolean } from "../http/query.js";
import type { RepoReadDeps } from "../repos/read-routes.js";
import { assignedRepo, type RepoApiPath } from "../repos/repo-assignment.js";
import type { RepoRecord } from "../repos/repo-records.js";
import { commitRef, xetUnavailable } from "../repos/write-routes.js";
import { CAS_PATH } from "./cas-routes.js";
import { XET_TOKEN_SECONDS } from "./xet-tokens.js";

export interface XetConnection {
  accessToken: string;
  /** Unix seconds. */
  exp: number;
  casUrl: string;
}

/** A CAS token for a repository whose permission the caller has already checked. */
export function issueXetToken(
  deps: RepoReadDeps,
  repo: RepoRecord,
  scope: "read" | "write",
  revision: string,
): XetConnection {
  if (!deps.xetSigner) xetUnavailable();
  const exp = Math.floor(Date.now() / 1000) + XET_TOKEN_SECONDS;
  const accessToken = deps.xetSigner.issue({ repoKey: repo.key, scope, expiresAt: exp, revision });
  return { accessToken, exp, casUrl: `${deps.publicUrl}${CAS_PATH}` };
}

/** The X-Xet-* headers huggingface_hub and @huggingface/hub read a connection from. */
export function xetConnectionHeaders(connection: XetConnection): Record<string, string> {
  return {
    "X-Xet-Cas-Url": connection.casUrl,
    "X-Xet-Access-Token": connection.accessToken,
    "X-Xet-Token-Expiration": String(connection.exp),
  };
}

/**
 * GET /api/{type}s/{id}/xet-{read|write}-token/{revision}: a short-lived CAS token for this repository and
 * revision. A read token needs the right to read the repository's files and a revision that exists. A write
 * token needs what a commit to that revision needs: the right to write, and a branch or pull-request ref
 * that exists (not a tag or a commit id); with `?create_pr=1` the revision is where the pull request will
 * start (huggingface_hub sends `None` when it does not know it yet). Answered in the JSON body (what hf_xet
 * and @huggingface/hub read) and in the X-Xet-* headers (what huggingface_hub reads).
 */
export function xetTokenHandler(scope: "read" | "write") {
  return async (deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> => {
    if (!deps.xetSigner) xetUnavailable();
    const { repo } = assignedRepo(c);
    const revision = target.rest.join("/") || "main";
    let granted: string;
    if (scope === "read") {
      const resolved = await deps.repos.resolveOrThrow(repo, revision);
      granted = resolved.ref ?? resolved.commitOid;
    } else if (queryBoolean(c, "create_pr")) {
      granted = "refs/pr/*";
    } else {
      granted = commitRef(revision);
      if (!(await deps.repos.refTarget(repo, granted))) throw new RevisionNotFoundError(revision);
    }
    const connection = issueXetToken(deps, repo, scope, granted);
    for (const [name, value] of Object.entries(xetConnectionHeaders(connection))) c.header(name, value);
    c.header("Cache-Control", "no-store");
    return c.json(connection);
  };
}
