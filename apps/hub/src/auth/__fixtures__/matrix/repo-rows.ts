import {
  everyone,
  listsPrivateId,
  MANAGE_PRIVATE_REPO,
  READ_PRIVATE_REPO,
  type Row,
  SEES_PRIVATE,
  SIGNED_IN,
  succeedsWith,
  WRITE_PRIVATE_REPO,
} from "./callers.js";
import { GATED, PRIVATE_OBJECT, PRIVATE_OBJECT_OID, PRIVATE_REPO } from "./fixture.js";

const API = `/api/models/${PRIVATE_REPO}`;
const LFS = `/${PRIVATE_REPO}.git/info/lfs/objects`;
const LFS_JSON = { Accept: "application/vnd.git-lfs+json" };
const SHA = "a".repeat(64);

const listsPrivateRepo = listsPrivateId(PRIVATE_REPO);

/** An LFS download batch's answer for its one object: a download URL, absent (404) or the call's status. */
function lfsDownloadOutcome(response: Response, body: unknown): string {
  if (response.status !== 200) return String(response.status);
  const object = (body as { objects: Array<{ actions?: { download?: unknown }; error?: { code: number } }> })
    .objects[0];
  return object?.actions?.download ? "url" : object?.error?.code === 404 ? "absent" : JSON.stringify(object);
}

/** Repositories with files: the repository API, file downloads, Git LFS, Xet tokens, and access requests. */
export const REPO_ROWS: Row[] = [
  {
    route: "GET /api/datasets",
    name: "listing of acme's datasets",
    method: "GET",
    path: "/api/datasets?author=acme",
    outcome: listsPrivateRepo,
    expected: SEES_PRIVATE,
  },
  {
    route: "GET /api/spaces",
    name: "search for acme's private space",
    method: "GET",
    path: "/api/spaces?search=private-repo",
    outcome: listsPrivateRepo,
    expected: SEES_PRIVATE,
  },
  {
    route: "GET /api/{type}s/{id}",
    name: "a private repository's info",
    method: "GET",
    path: API,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/revision",
    name: "a private repository's info at a revision",
    method: "GET",
    path: `${API}/revision/main`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/tree",
    name: "list a private repository's files",
    method: "GET",
    path: `${API}/tree/main`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "POST /api/{type}s/{id}/paths-info",
    name: "information on paths of a private repository",
    method: "POST",
    path: `${API}/paths-info/main`,
    body: { paths: [".gitattributes"] },
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/commits",
    name: "list a private repository's commits",
    method: "GET",
    path: `${API}/commits/main`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/refs",
    name: "list a private repository's branches and tags",
    method: "GET",
    path: `${API}/refs`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/auth-check",
    name: "check read access to a private repository",
    method: "GET",
    path: `${API}/auth-check`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/auth-check",
    name: "check read access to a gated repository nobody granted",
    method: "GET",
    path: `/api/models/${GATED}/auth-check`,
    // Gated as its files are: the same callers as a download of the gated repository's file.
    expected: { ...READ_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 200 },
  },
  {
    route: "GET /api/{type}s/{id}/auth-check",
    name: "check write access to a private repository",
    method: "GET",
    path: `${API}/auth-check/write`,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/scan",
    name: "a private repository's file scan report",
    method: "GET",
    path: `${API}/scan/main/weights.bin`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/scan",
    name: "a gated repository's file scan report, access not granted",
    method: "GET",
    path: `/api/models/${GATED}/scan/main/.gitattributes`,
    // Gated as its files are: the same callers as a download of the gated repository's file.
    expected: { ...READ_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 200 },
  },
  {
    route: "POST /api/{type}s/{id}/scan-allow",
    name: "allow serving a private repository's file found unsafe",
    method: "POST",
    path: `${API}/scan-allow/main/weights.bin`,
    writes: true,
    expected: MANAGE_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/compare",
    name: "compare two revisions of a private repository",
    method: "GET",
    path: `${API}/compare/main..main`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /{id}/resolve/{revision}/{path}",
    name: "download a file of a private repository",
    method: "GET",
    path: `/${PRIVATE_REPO}/resolve/main/.gitattributes`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /{id}/raw/{revision}/{path}",
    name: "a private repository's raw file",
    method: "GET",
    path: `/${PRIVATE_REPO}/raw/main/.gitattributes`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /{id}/resolve/{revision}/{path}",
    name: "download a file of a gated repository nobody granted",
    method: "GET",
    path: `/${GATED}/resolve/main/.gitattributes`,
    // Members pass the gate; another user is refused with GatedRepo (403); a fine-grained token reads any
    // repository it can see, and acme's members can see this one.
    expected: { ...READ_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 200 },
  },
  {
    route: "POST /api/{type}s/{id}/super-squash",
    name: "squash a branch's history",
    method: "POST",
    path: (caller) => `${API}/super-squash/squashed-${caller}`,
    body: { message: "squashed" },
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/lfs-files",
    name: "list a private repository's LFS objects",
    method: "GET",
    path: `${API}/lfs-files`,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    // Without rewriting history, an object a commit names is refused (400) once the caller may write: the
    // fixture's object stays for the other rows, and the refusal shows who got past authorization.
    route: "POST /api/{type}s/{id}/lfs-files",
    name: "permanently delete a private repository's LFS object",
    method: "POST",
    path: `${API}/lfs-files/batch`,
    body: { deletions: { sha: [PRIVATE_OBJECT_OID], rewriteHistory: false } },
    expected: succeedsWith(WRITE_PRIVATE_REPO, 400),
  },
  {
    route: "DELETE /api/{type}s/{id}/lfs-files",
    name: "permanently delete one LFS object of a private repository",
    method: "DELETE",
    path: `${API}/lfs-files/${PRIVATE_OBJECT_OID}?rewriteHistory=false`,
    expected: succeedsWith(WRITE_PRIVATE_REPO, 400),
  },
  {
    route: "GET /api/settings/repositories",
    // A settings page: a credential that may create in one's namespace (read tokens may not).
    name: "list one's own repositories with their storage",
    method: "GET",
    path: "/api/settings/repositories",
    expected: { ...SIGNED_IN, reader: 403, readTokenOnWrite: 403 },
  },
  {
    route: "GET /api/organizations/:org/settings/repositories",
    name: "list acme's repositories (private ones included) with their storage",
    method: "GET",
    path: "/api/organizations/acme/settings/repositories",
    expected: { ...WRITE_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 403 },
  },
  {
    route: "POST /api/{type}s/{id}/duplicate",
    // Reading the source is not enough: the copy is created in acme, which readers may not create in.
    name: "duplicate a private repository within its organization",
    method: "POST",
    path: `${API}/duplicate`,
    body: (caller) => ({ repository: `acme/copy-by-${caller}` }),
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/discussions",
    name: "the diff of a gated repository's pull request (it prints file contents)",
    method: "GET",
    path: `/api/models/${GATED}/discussions/1?diff=1`,
    // Gated as its files are: the same callers as a download of the gated repository's file.
    expected: { ...READ_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 200 },
  },
  {
    route: "GET /api/{type}s/{id}/xet-read-token",
    name: "a Xet read token for a private repository",
    method: "GET",
    path: `${API}/xet-read-token/main`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/xet-write-token",
    name: "a Xet write token for a private repository",
    method: "GET",
    path: `${API}/xet-write-token/main`,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "POST /{id}.git/info/lfs/objects/batch",
    name: "LFS download batch of a private repository",
    method: "POST",
    path: `${LFS}/batch`,
    headers: LFS_JSON,
    body: { operation: "download", transfers: ["basic"], objects: [{ oid: SHA, size: 1 }] },
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "POST /{id}.git/info/lfs/objects/batch",
    name: "LFS upload batch to a private repository",
    method: "POST",
    path: `${LFS}/batch`,
    headers: LFS_JSON,
    body: { operation: "upload", transfers: ["basic"], objects: [{ oid: SHA, size: 1 }] },
    expected: WRITE_PRIVATE_REPO,
  },
  {
    // Knowing a hash is no capability: the batch of another repository skips the upload (the content is
    // claimed) only for callers who may read the private repository holding it; anyone else is asked for the
    // bytes, as for content the hub never saw. A claim attaches nothing: the callers before do not change
    // what the next one is answered.
    route: "POST /{id}.git/info/lfs/objects/batch",
    name: "LFS upload batch to the gated repository naming the private repository's object",
    method: "POST",
    path: `/${GATED}.git/info/lfs/objects/batch`,
    headers: LFS_JSON,
    body: { operation: "upload", transfers: ["basic"], objects: [{ oid: PRIVATE_OBJECT_OID, size: PRIVATE_OBJECT.length }] },
    outcome: (response, body) =>
      response.status !== 200
        ? String(response.status)
        : (body as { objects: Array<{ actions?: unknown }> }).objects[0]?.actions
          ? "upload"
          : "claimed",
    expected: {
      anonymous: "401",
      reader: "403",
      writer: "claimed",
      orgAdmin: "claimed",
      otherUser: "upload",
      revokedToken: "401",
      expiredToken: "401",
      readTokenOnWrite: "403",
      fineGrainedOutOfScope: "403",
      siteAdmin: "claimed",
    },
  },
  {
    route: "POST /{id}.git/info/lfs/objects/verify",
    name: "LFS verify of an object never uploaded",
    method: "POST",
    path: `${LFS}/verify`,
    headers: LFS_JSON,
    body: { oid: SHA, size: 1 },
    expected: { ...WRITE_PRIVATE_REPO, writer: 404, orgAdmin: 404, siteAdmin: 404 },
  },
  {
    route: "POST /{id}.git/info/lfs/objects/batch",
    name: "LFS download batch of the private repository's own object",
    method: "POST",
    path: `${LFS}/batch`,
    headers: LFS_JSON,
    body: { operation: "download", objects: [{ oid: PRIVATE_OBJECT_OID, size: PRIVATE_OBJECT.length }] },
    outcome: lfsDownloadOutcome,
    expected: {
      anonymous: "401",
      reader: "url",
      writer: "url",
      orgAdmin: "url",
      otherUser: "404",
      revokedToken: "401",
      expiredToken: "401",
      readTokenOnWrite: "url",
      fineGrainedOutOfScope: "404",
      siteAdmin: "url",
    },
  },
  {
    // Knowing a hash is never a capability: the gated repository does not reference the private object, so
    // nobody gets a download URL for it there; another user does not pass the gate at all.
    route: "POST /{id}.git/info/lfs/objects/batch",
    name: "LFS download batch of the gated repository naming the private repository's object",
    method: "POST",
    path: `/${GATED}.git/info/lfs/objects/batch`,
    headers: LFS_JSON,
    body: { operation: "download", objects: [{ oid: PRIVATE_OBJECT_OID, size: PRIVATE_OBJECT.length }] },
    outcome: lfsDownloadOutcome,
    expected: {
      anonymous: "401",
      reader: "absent",
      writer: "absent",
      orgAdmin: "absent",
      otherUser: "403",
      revokedToken: "401",
      expiredToken: "401",
      readTokenOnWrite: "absent",
      fineGrainedOutOfScope: "absent",
      siteAdmin: "absent",
    },
  },
  {
    // Signed download URLs: the grant allows the read; a forged one opens nothing, whoever holds it.
    route: "GET /api/lfs-download/{grant}",
    name: "LFS download with a forged grant",
    method: "GET",
    path: "/api/lfs-download/forged.signature",
    expected: everyone(401),
  },
  {
    route: "GET /{id}/info/refs",
    name: "git clone of a private repository (ref advertisement)",
    method: "GET",
    path: `/${PRIVATE_REPO}/info/refs?service=git-upload-pack`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "GET /{id}/info/refs",
    name: "git clone of a gated repository nobody granted",
    method: "GET",
    path: `/${GATED}.git/info/refs?service=git-upload-pack`,
    // As a download of its files: another user is refused with GatedRepo.
    expected: { ...READ_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 200 },
  },
  {
    route: "GET /{id}/info/refs",
    name: "git push to a private repository (ref advertisement)",
    method: "GET",
    path: `/${PRIVATE_REPO}/info/refs?service=git-receive-pack`,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    // An empty push (a flush): who may write gets receive-pack's answer, anyone else the write refusal.
    route: "POST /{id}/git-receive-pack",
    name: "git push to a private repository",
    method: "POST",
    path: `/${PRIVATE_REPO}/git-receive-pack`,
    rawBody: { contentType: "application/x-git-receive-pack-request", text: () => "0000" },
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "POST /{id}/git-upload-pack",
    name: "git fetch from a private repository",
    method: "POST",
    path: `/${PRIVATE_REPO}/git-upload-pack`,
    rawBody: { contentType: "application/x-git-upload-pack-request", text: () => "0000" },
    expected: READ_PRIVATE_REPO,
  },
  {
    // Signed URLs: the grant, not the caller's credential, allows the upload; a forged one opens nothing.
    route: "PUT /api/lfs-upload/{grant}",
    name: "LFS upload with a forged grant",
    method: "PUT",
    path: "/api/lfs-upload/forged.signature",
    rawBody: { contentType: "application/octet-stream", text: () => "x" },
    expected: everyone(401),
  },
  {
    route: "POST /api/lfs-verify/{grant}",
    name: "LFS verify with a forged grant",
    method: "POST",
    path: "/api/lfs-verify/forged.signature",
    body: { oid: SHA, size: 1 },
    expected: everyone(401),
  },
  {
    route: "POST /api/lfs-complete/{grant}",
    name: "LFS multipart completion with a forged grant",
    method: "POST",
    path: "/api/lfs-complete/forged.signature",
    body: { oid: SHA, parts: [] },
    expected: everyone(401),
  },
  {
    route: "POST /api/{type}s/{id}/preupload",
    name: "ask which files of a commit go to LFS",
    method: "POST",
    path: `${API}/preupload/main`,
    body: { files: [{ path: "weights.bin", size: 20_000_000, sample: "" }] },
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "POST /api/{type}s/{id}/commit",
    name: "commit a file to a private repository",
    method: "POST",
    path: `${API}/commit/main`,
    rawBody: {
      contentType: "application/x-ndjson",
      text: (caller) =>
        [
          { key: "header", value: { summary: `From ${caller}` } },
          {
            key: "file",
            value: { path: `from-${caller}.txt`, content: Buffer.from(caller).toString("base64"), encoding: "base64" },
          },
        ]
          .map((line) => JSON.stringify(line))
          .join("\n"),
    },
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "POST /api/{type}s/{id}/branch",
    name: "create a branch",
    method: "POST",
    path: (caller) => `${API}/branch/made-by-${caller}`,
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "DELETE /api/{type}s/{id}/branch",
    name: "delete a branch",
    method: "DELETE",
    path: (caller) => `${API}/branch/doomed-${caller}`,
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "POST /api/{type}s/{id}/tag",
    name: "tag a revision",
    method: "POST",
    path: `${API}/tag/main`,
    body: (caller) => ({ tag: `made-by-${caller}` }),
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "DELETE /api/{type}s/{id}/tag",
    name: "delete a tag",
    method: "DELETE",
    path: (caller) => `${API}/tag/doomed-${caller}`,
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "GET /api/{type}s/{id}/discussions",
    name: "list a private repository's discussions",
    method: "GET",
    path: `${API}/discussions`,
    expected: READ_PRIVATE_REPO,
  },
  {
    route: "POST /api/{type}s/{id}/discussions",
    name: "open a discussion on a private repository",
    method: "POST",
    path: `${API}/discussions`,
    body: (caller) => ({ title: `From ${caller}`, description: "Hello", pullRequest: false }),
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "POST /api/{type}s/{id}/discussions",
    name: "comment on a discussion of a private repository",
    method: "POST",
    path: `${API}/discussions/1/comment`,
    body: (caller) => ({ comment: `A comment from ${caller}` }),
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "POST /api/{type}s/{id}/discussions",
    name: "close someone else's discussion",
    method: "POST",
    path: `${API}/discussions/1/status`,
    body: { status: "open" },
    writes: true,
    expected: WRITE_PRIVATE_REPO,
  },
  {
    route: "PUT /api/{type}s/{id}/settings",
    name: "change a private repository's settings",
    method: "PUT",
    path: `${API}/settings`,
    body: { private: true },
    writes: true,
    expected: MANAGE_PRIVATE_REPO,
  },
  {
    route: "POST /api/{type}s/{id}/ask-access",
    name: "ask for access to a gated model",
    method: "POST",
    path: `/api/models/${GATED}/ask-access`,
    body: { fields: { purpose: "research" } },
    writes: true,
    expected: SIGNED_IN,
  },
  {
    route: "GET /api/{type}s/{id}/ask-access",
    name: "see one's own request to a gated model",
    method: "GET",
    path: `/api/models/${GATED}/ask-access`,
    expected: SIGNED_IN,
  },
  {
    route: "GET /api/{type}s/{id}/user-access-request",
    name: "list a gated model's pending requests",
    method: "GET",
    path: `/api/models/${GATED}/user-access-request/pending`,
    expected: { ...MANAGE_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 403 },
  },
  {
    route: "POST /api/{type}s/{id}/user-access-request",
    name: "grant access to a gated model",
    method: "POST",
    path: `/api/models/${GATED}/user-access-request/grant`,
    body: { user: "otto" },
    writes: true,
    // The site admin comes after the org admin, who granted otto already: granting twice is a 400.
    expected: { ...MANAGE_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 403, siteAdmin: 400 },
  },
  {
    route: "GET /api/{type}s/{id}/ask-access",
    name: "see one's own request to a gated model",
    method: "GET",
    path: `/api/models/${GATED}/ask-access`,
    expected: SIGNED_IN,
  },
  {
    route: "GET /api/{type}s/{id}/user-access-request",
    name: "list a private model's requests (hidden first)",
    method: "GET",
    path: `${API}/user-access-request/pending`,
    expected: MANAGE_PRIVATE_REPO,
  },
  {
    route: "POST /api/repos/create",
    name: "create a repository in the organization",
    method: "POST",
    path: "/api/repos/create",
    body: (caller) => ({ type: "model", name: `made-by-${caller}`, organization: "acme", private: true }),
    writes: true,
    expected: { ...WRITE_PRIVATE_REPO, otherUser: 403, fineGrainedOutOfScope: 403 },
  },
  {
    route: "POST /api/repos/move",
    name: "move a private repository",
    method: "POST",
    path: "/api/repos/move",
    body: (caller) => ({ type: "model", fromRepo: `acme/move-me-${caller}`, toRepo: `acme/moved-${caller}` }),
    writes: true,
    expected: MANAGE_PRIVATE_REPO,
  },
  {
    route: "DELETE /api/repos/delete",
    name: "delete a private repository",
    method: "DELETE",
    path: "/api/repos/delete",
    body: (caller) => ({ type: "model", name: `delete-me-${caller}`, organization: "acme" }),
    writes: true,
    expected: MANAGE_PRIVATE_REPO,
  },
];

/**
 * The Xet CAS API answers signed Xet tokens (issued by the xet-*-token rows), never hub credentials: every
 * caller's hub token, valid or not, is refused (401), and nothing is written.
 */
export const XET_CAS_ROWS: Row[] = (
  [
  ["POST", "/xet-cas/v1/xorbs/:prefix/:hash", `/xet-cas/v1/xorbs/default/${SHA}`],
  ["POST", "/xet-cas/v1/shards", "/xet-cas/v1/shards"],
  ["GET", "/xet-cas/v1/chunks/:prefix/:hash", `/xet-cas/v1/chunks/default-merkledb/${SHA}`],
  ["GET", "/xet-cas/v1/reconstructions/:file", `/xet-cas/v1/reconstructions/${SHA}`],
  ["GET", "/xet-cas/v2/reconstructions/:file", `/xet-cas/v2/reconstructions/${SHA}`],
  // A term's presigned URL: refused without its signature, whoever calls.
  ["GET", "/xet-cas/v1/fetch/:hash", `/xet-cas/v1/fetch/${SHA}`, 403],
  ] as Array<[Row["method"], string, string, number?]>
).map(([method, route, path, status]) => ({
  route: `${method} ${route}`,
  name: "Xet CAS with a hub credential",
  method,
  path,
  ...(method === "POST" ? { rawBody: { contentType: "application/octet-stream", text: () => "x" } } : {}),
  expected: everyone(status ?? 401),
}));
