import type { Context } from "hono";
import { spaceSdk } from "../derive/derive-repo-card.js";
import { parseFrontMatter } from "../derive/front-matter.js";
import { NotFoundError, UnprocessableError } from "../errors.js";
import type { RepoReadDeps } from "./read-routes.js";
import { assignedRepo, assignedRevision } from "./repo-assignment.js";
import { parseRepoPath } from "./repo-path.js";
import type { RepoRecord } from "./repo-records.js";

/** The largest README read for the space's `sdk` and `app_file`. */
const MAX_CARD_BYTES = 1024 * 1024;

/**
 * GET /api/spaces/{id}/app-url/{revision}: where the caller's browser may load a static space's site (a signed
 * link on the spaces origin, valid for a short while). repoAssignment() has checked that the caller may read
 * the space's files; the link carries that right to the spaces origin, which never sees the hub's session.
 * A Gradio or Docker space is answered plainly: this hub does not run them.
 */
export async function spaceAppUrl(deps: RepoReadDeps, c: Context): Promise<Response> {
  const { repo } = assignedRepo(c);
  const { commitOid } = assignedRevision(c);
  if (repo.type !== "space") throw new NotFoundError("Only spaces have an app.");
  if (!deps.spaceApps) throw new NotFoundError("This hub serves no spaces' sites (no spaces origin).");
  const card = await readCardData(deps, repo, commitOid);
  const sdk = spaceSdk(card);
  if (sdk !== "static") {
    throw new UnprocessableError(
      `${repo.id} is a ${sdk} space: this hub serves static spaces only and does not run ${sdk} spaces (yet). Its files are under "Files and versions".`,
    );
  }
  const entry = typeof card?.app_file === "string" && card.app_file ? card.app_file : "index.html";
  let path: string;
  try {
    path = parseRepoPath(entry);
  } catch {
    throw new UnprocessableError(
      `app_file ${JSON.stringify(entry)} in README.md is not a file path of the space.`,
    );
  }
  if (!(await deps.repos.fileAt(repo, commitOid, path))) {
    throw new NotFoundError(
      `${repo.id} has no ${path} at this revision: add one, or name the page to show with app_file in README.md.`,
    );
  }
  const link = await deps.spaceApps.mint(repo, commitOid, path);
  c.header("Cache-Control", "no-store");
  return c.json({ url: link.url, expiresAt: link.expiresAt, sdk, appFile: path, sha: commitOid });
}

async function readCardData(
  deps: RepoReadDeps,
  repo: RepoRecord,
  commitOid: string,
): Promise<Record<string, unknown> | undefined> {
  const readme = await deps.repos.fileAt(repo, commitOid, "README.md");
  if (!readme || readme.size > MAX_CARD_BYTES) return undefined;
  const text = await deps.repos.readText(readme);
  return text ? parseFrontMatter(text).data : undefined;
}
