import { type Context, Hono } from "hono";
import { repoDiscussions } from "../discussions/discussions-routes.js";
import { askForCredentials } from "../git/git-routes.js";
import {
  batchAccess,
  type LfsDeps,
  lfsBatch,
  lfsComplete,
  lfsMediaType,
  lfsUpload,
  lfsVerify,
  lfsVerifyGrant,
  readBatchRequest,
} from "../lfs-xet/lfs-routes.js";
import { xetTokenHandler } from "../lfs-xet/xet-token-routes.js";
import { askAccess, myAccessRequest, userAccessRequests } from "./access-requests-routes.js";
import { repoCompare } from "./compare-routes.js";
import { repoDuplicate } from "./duplicate-routes.js";
import { repoLfsFiles, repoLfsFilesDelete } from "./lfs-files-routes.js";
import { repoLike, repoLikers } from "./like-routes.js";
import {
  authCheckAccess,
  type RepoReadDeps,
  repoAuthCheck,
  repoCommits,
  repoInfo,
  repoPathsInfo,
  repoRefs,
  repoTree,
} from "./read-routes.js";
import { type AccessOf, type RepoApiPath, type RepoEnv, repoAssignment } from "./repo-assignment.js";
import type { RepoType } from "./repo-records.js";
import { resolveFile } from "./resolve-routes.js";
import { scanAllow, scanReport } from "./scan-routes.js";
import { spaceAppUrl } from "./space-app-routes.js";
import {
  commitAccess,
  preuploadAccess,
  repoBranch,
  repoCommit,
  repoPreupload,
  repoSettings,
  repoSuperSquash,
  repoTag,
} from "./write-routes.js";

type Method = "GET" | "POST" | "PUT" | "DELETE";
type ApiHandler = (deps: RepoReadDeps, c: Context, target: RepoApiPath) => Response | Promise<Response>;

/**
 * `/api/{models|datasets|spaces}/{id}[/{action}[/{revision}[/{path}]]]`, the repository API, in the order a
 * reader looks for it. `access` is what repoAssignment() checks before the handler runs; `tail` says the
 * action takes a revision (or a name) and a path after it; `revision` has repoAssignment() resolve that
 * revision too. GET routes answer HEAD as well (Hono).
 */
const REPO_API: readonly {
  method: Method;
  action: string;
  access: AccessOf;
  tail: boolean;
  /** The tail starts with a revision that repoAssignment() resolves; the error when there is none. */
  revision?: string;
  handler: ApiHandler;
}[] = [
  { method: "GET", action: "", access: "read", tail: false, handler: repoInfo },
  { method: "GET", action: "revision", access: "read", tail: true, handler: repoInfo },
  {
    method: "GET",
    action: "tree",
    access: "read",
    tail: true,
    revision: "A revision is required: /tree/{revision}/{path}.",
    handler: repoTree,
  },
  { method: "POST", action: "paths-info", access: "read", tail: true, handler: repoPathsInfo },
  // A file's scan report reads as the file does (gated: gated); the opt-in to serve an unsafe file is the
  // repository admin's (an owner, or a site admin), as its settings are.
  {
    method: "GET",
    action: "scan",
    access: "read-files",
    tail: true,
    revision: "A revision and a path are required: /scan/{revision}/{path}.",
    handler: scanReport,
  },
  {
    method: "POST",
    action: "scan-allow",
    access: "admin",
    tail: true,
    revision: "A revision and a path are required: /scan-allow/{revision}/{path}.",
    handler: scanAllow,
  },
  { method: "GET", action: "commits", access: "read", tail: true, handler: repoCommits },
  { method: "GET", action: "refs", access: "read", tail: true, handler: repoRefs },
  { method: "GET", action: "auth-check", access: authCheckAccess, tail: true, handler: repoAuthCheck },
  { method: "GET", action: "compare", access: "read-files", tail: true, handler: repoCompare },
  { method: "POST", action: "preupload", access: preuploadAccess, tail: true, handler: repoPreupload },
  { method: "POST", action: "commit", access: commitAccess, tail: true, handler: repoCommit },
  { method: "PUT", action: "settings", access: "admin", tail: true, handler: repoSettings },
  { method: "POST", action: "branch", access: "write", tail: true, handler: repoBranch },
  { method: "DELETE", action: "branch", access: "write", tail: true, handler: repoBranch },
  { method: "POST", action: "tag", access: "write", tail: true, handler: repoTag },
  { method: "DELETE", action: "tag", access: "write", tail: true, handler: repoTag },
  { method: "POST", action: "super-squash", access: "write", tail: true, handler: repoSuperSquash },
  { method: "POST", action: "duplicate", access: "read-files", tail: false, handler: repoDuplicate },
  // LFS objects of the history and their permanent deletion: storage settings, for those who may write.
  { method: "GET", action: "lfs-files", access: "write", tail: true, handler: repoLfsFiles },
  { method: "POST", action: "lfs-files", access: "write", tail: true, handler: repoLfsFilesDelete },
  { method: "DELETE", action: "lfs-files", access: "write", tail: true, handler: repoLfsFilesDelete },
  { method: "POST", action: "ask-access", access: "read", tail: true, handler: askAccess },
  { method: "GET", action: "ask-access", access: "read", tail: true, handler: myAccessRequest },
  { method: "GET", action: "user-access-request", access: "admin", tail: true, handler: userAccessRequests },
  { method: "POST", action: "user-access-request", access: "admin", tail: true, handler: userAccessRequests },
  // Likes by this hub's users: whoever may read a repository may like it (once signed in).
  { method: "GET", action: "like", access: "read", tail: false, handler: repoLike },
  { method: "POST", action: "like", access: "read", tail: false, handler: repoLike },
  { method: "DELETE", action: "like", access: "read", tail: false, handler: repoLike },
  { method: "GET", action: "likers", access: "read", tail: false, handler: repoLikers },
  { method: "GET", action: "discussions", access: "read", tail: true, handler: repoDiscussions },
  {
    method: "GET",
    action: "app-url",
    access: "read-files",
    tail: true,
    revision: "Name the revision whose site to show: /api/spaces/{id}/app-url/main.",
    handler: spaceAppUrl,
  },
  { method: "POST", action: "discussions", access: "discuss", tail: true, handler: repoDiscussions },
  {
    method: "GET",
    action: "xet-read-token",
    access: "read-files",
    tail: true,
    handler: xetTokenHandler("read"),
  },
  {
    method: "GET",
    action: "xet-write-token",
    access: "write",
    tail: true,
    handler: xetTokenHandler("write"),
  },
];

const API_TYPE = ":type{models|datasets|spaces}";
const PREFIX = ":prefix{datasets|spaces}";
/** `/api/...` is never a repository id: `/api/x/resolve/...` stays with the API routes. */
const NAMESPACE = ":namespace{(?!api$)[^/]+}";

/**
 * The id forms of a repository, in the order they are tried. API paths try the legacy id first
 * (`/api/models/gpt2/tree/main` is gpt2's tree, as the public hub reads it); file and LFS paths try the
 * datasets|spaces prefix, then two segments (`/datasets/x/resolve/...` is the dataset x).
 */
const API_IDS = [`/api/${API_TYPE}/:name`, `/api/${API_TYPE}/:namespace/:name`];
export const FILE_IDS = [`/${PREFIX}/:namespace/:name`, `/${PREFIX}/:name`, `/${NAMESPACE}/:name`, "/:name"];
const GIT_IDS = FILE_IDS.map((id) => `${id}{[^/]+\\.git}`);

/** An action's paths: bare, with a revision (or name), with a path after it (`refs%2Fpr%2F1` is one segment). */
function actionPaths(id: string, action: string, tail: boolean): string[] {
  const base = action ? `${id}/${action}` : id;
  return tail ? [base, `${base}/:revision`, `${base}/:revision/:path{.*}`] : [base];
}

export interface RepositoryRoutesDeps extends LfsDeps {
  /** Whether a model without a repository is a catalogue record (its `/api/models/{id}` is the catalogue's). */
  isCatalogueModel: (id: string) => Promise<boolean>;
}

/**
 * Every public URL of the repositories: file downloads, Git LFS and the repository API. Mounted first by
 * app.ts; a path none of these match goes on to the other routes, then to the web app's pages.
 */
export function repositoryRoutes(deps: RepositoryRoutesDeps): Hono<RepoEnv> {
  const routes = new Hono<RepoEnv>();

  // Files: `/{id}/resolve/{revision}/{path}` (an LFS file's content), `/{id}/raw/...` (its pointer); GET, HEAD.
  for (const id of FILE_IDS) {
    for (const mode of ["resolve", "raw"] as const) {
      routes.get(
        `${id}/${mode}/:revision/:path{.+}`,
        repoAssignment(deps, "read-files", {
          revision: { required: "A revision is required.", redirectsMoved: true },
        }),
        resolveFile(deps, mode),
      );
    }
  }

  // Git LFS: the batch API and verify on `{id}.git`, then the signed URLs the batch hands out.
  for (const id of GIT_IDS) {
    routes.post(
      `${id}/info/lfs/objects/batch`,
      askForCredentials,
      lfsMediaType,
      readBatchRequest,
      repoAssignment(deps, batchAccess),
      lfsBatch(deps),
    );
    routes.post(
      `${id}/info/lfs/objects/verify`,
      askForCredentials,
      lfsMediaType,
      repoAssignment(deps, "discuss"),
      lfsVerify(deps),
    );
  }
  routes.put("/api/lfs-upload/:grant", lfsUpload(deps));
  routes.post("/api/lfs-complete/:grant", lfsComplete(deps));
  routes.post("/api/lfs-verify/:grant", lfsVerifyGrant(deps));

  // The repository API, one-segment ids first (see API_IDS). A model that is only a catalogue record has no
  // repository: its `/api/models/{id}` goes on to the catalogue's models routes.
  const knownElsewhere = (type: RepoType, id: string) =>
    type === "model" ? deps.isCatalogueModel(id) : Promise.resolve(false);
  for (const id of API_IDS) {
    for (const { method, action, access, tail, revision, handler } of REPO_API) {
      const assignment = repoAssignment(deps, access, {
        action: action || undefined,
        ...(action === "" ? { knownElsewhere } : {}),
        ...(revision ? { revision: { required: revision } } : {}),
      });
      routes.on(method, actionPaths(id, action, tail), assignment, (c, next) =>
        c.get("repository") ? handler(deps, c, c.get("repository")!.target) : next(),
      );
    }
  }
  return routes;
}
