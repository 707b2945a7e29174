import type { Context } from "hono";
import { XET_TOKEN_SECONDS } from "../xet/xet-tokens.js";
import type { RepoApiPath } from "./repo-api-path.js";
import type { RepoReadDeps } from "./repo-read.js";
import { findRepo } from "./repo-target.js";
import { xetUnavailable } from "./repo-write.js";
import { CAS_PATH } from "./xet-cas.js";

/**
 * GET /api/{type}s/{id}/xet-{read|write}-token/{revision}: a short-lived CAS token for this repository, after
 * the same permission check as reading its files or writing to it. Answered in the JSON body (what hf_xet
 * reads) and in the X-Xet-* headers (what huggingface_hub reads).
 */
export function xetTokenHandler(scope: "read" | "write") {
  return async (deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> => {
    if (!deps.xetSigner) xetUnavailable();
    const { repo } = await findRepo(
      deps,
      c,
      target.type,
      target.id,
      scope === "write" ? "write" : "read-files",
    );
    const exp = Math.floor(Date.now() / 1000) + XET_TOKEN_SECONDS;
    const accessToken = deps.xetSigner.issue({ repoKey: repo.key, scope, expiresAt: exp });
    const casUrl = `${deps.publicUrl}${CAS_PATH}`;
    c.header("X-Xet-Cas-Url", casUrl);
    c.header("X-Xet-Access-Token", accessToken);
    c.header("X-Xet-Token-Expiration", String(exp));
    c.header("Cache-Control", "no-store");
    return c.json({ accessToken, exp, casUrl });
  };
}
