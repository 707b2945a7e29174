import type { Context } from "hono";
import type { DownloadCounter } from "../catalogue/download-counter.js";
import type { EngagementService } from "../catalogue/engagement-service.js";
import type { ProviderMappings } from "../catalogue/mapping-record.js";
import {
  type ExpandField,
  fieldsFor,
  modelView,
  needsMappings,
  parseExpand,
} from "../catalogue/model-view.js";
import { repoCardTags, spaceSdk } from "../derive/derive-repo-card.js";
import { parseFrontMatter } from "../derive/front-matter.js";
import type { DiscussionsService } from "../discussions/discussions-service.js";
import { EntryNotFoundError, InvalidInputError, NotFoundError } from "../errors.js";
import { jsonObject, parseJsonBody, readBodyBytes } from "../http/body.js";
import { escapeHtml, plainTextToHtml } from "../http/plain-text-html.js";
import { queryBoolean, queryInteger, queryList, queryOne } from "../http/query.js";
import type { CasService } from "../lfs-xet/cas-service.js";
import type { XetSigner } from "../lfs-xet/xet-tokens.js";
import type { StorageQuotaCheck } from "../limits/storage-quotas.js";
import type { AccessRequestsService } from "./access-requests-service.js";
import type { ContentClaims } from "./content-claims.js";
import { lfsPointerSize } from "./lfs-pointer.js";
import type { RepoAction } from "./repo-access.js";
import { assignedRepo, assignedRevision, type RepoApiPath } from "./repo-assignment.js";
import { parseFolderPath, parseRepoPath } from "./repo-path.js";
import type { FileRecord, RepoRecord } from "./repo-records.js";
import type { RepoTargetDeps } from "./repo-target.js";
import { splitRevision } from "./revision.js";
import { etagOf, identityOf, matchesIfNoneMatch, RevisionAnswerCache } from "./revision-answer-cache.js";
import type { RepoScanning } from "./scan-port.js";
import type { SpaceAppMinter } from "./space-app-port.js";
import type { TreeEntryView } from "./tree-listing.js";

/** A model's catalogue record, as the catalogue's view renders it. */
type CatalogueModel = Parameters<typeof modelView>[0];

/** What a model repository's info shows of its catalogue record (the catalogue's, wired by app.ts). */
export interface CatalogueRecords {
  model(id: string): Promise<CatalogueModel | undefined>;
  countChildren(id: string): Promise<number>;
  /** The provider mappings in the caller's preferred order. */
  mappingsFor(c: Context, modelId: string): Promise<ProviderMappings>;
  /** The untouched demo copy of a catalogue model that repository `repoKey` is, if it is one. */
  demoCopy?(repoKey: number): Promise<DemoCopyFacts | undefined>;
}

/**
 * A demo copy as its info shows it (`demoCopy`, not on the public hub): where the original is, and the
 * downloads and likes its source counted there, labelled with that source; its dates are the original's.
 */
export interface DemoCopyFacts {
  originalUrl: string;
  originalCreatedAt?: string;
  figures?: { source: string; downloads: number; likes: number };
}

export interface RepoReadDeps extends RepoTargetDeps {
  catalogue: CatalogueRecords;
  discussions: DiscussionsService;
  /** What content a repository may reference without an upload (content-claims.ts). */
  claims: ContentClaims;
  accessRequests: AccessRequestsService;
  /** Storage quotas, asked before an upload's bytes are stored (limits/storage-quotas.ts); unset: none. */
  quotas?: StorageQuotaCheck;
  publicUrl: string;
  /** Signs Xet tokens; without it the Xet token endpoints answer that Xet is unavailable. */
  xetSigner?: XetSigner;
  /** Reads Xet-stored files for /resolve. */
  cas?: CasService;
  /** `/resolve` of an LFS file answers 302 to the blob store's presigned URL, when the store has one. */
  redirectDownloads?: boolean;
  /** DOWNLOAD_OFFLOAD=x-accel: stored files are answered with X-Accel-Redirect under this prefix. */
  offloadPrefix?: string;
  /** The content scanner (scan-port.ts): security statuses, reports, SCAN_POLICY. Unset: files are unscanned. */
  scanning?: RepoScanning;
  /** Likes and this hub's own download counts (catalogue/engagement-service.ts). Unset: none are kept. */
  engagement?: EngagementService;
  /** Counts file downloads off the response path (catalogue/download-counter.ts). Unset: none are counted. */
  downloads?: Pick<DownloadCounter, "record">;
  /** Static spaces' site links on the spaces origin (SPACES_URL); unset: no space has an app here. */
  spaceApps?: SpaceAppMinter;
}

/** Fields only a repository has (on top of a model record's), accepted by `expand[]`. */
const REPO_EXPAND_FIELDS = [
  "sha",
  "usedStorage",
  "siblings",
  "lastModified",
  "createdAt",
  "private",
  "gated",
  "mirror",
  "demoCopy",
];

const URL_PREFIX = { model: "", dataset: "datasets/", space: "spaces/" } as const;

/**
 * `mirror` of a mirrored repository's info (docs/decisions/mirror.md): the upstream hub it mirrors and the
 * repository's page there. Absent for a local repository.
 */
export function mirrorField(
  repo: Pick<RepoRecord, "type" | "id" | "mirrorOf">,
): { upstream: string; url: string } | undefined {
  return repo.mirrorOf
    ? { upstream: repo.mirrorOf, url: `${repo.mirrorOf}/${URL_PREFIX[repo.type]}${repo.id}` }
    : undefined;
}

export function nextLink(c: Context, publicUrl: string, param: string, value: string): void {
  const url = new URL(c.req.url);
  const next = new URL(url.pathname + url.search, publicUrl);
  next.searchParams.set(param, value);
  c.header("Link", `<${next.toString()}>; rel="next"`);
}

/** A card larger than this is not read for the repository's info (its page links to the file instead). */
const MAX_CARD_BYTES = 1024 * 1024;

/** A dataset's or space's README.md: its front matter (`cardData`) and text (`cardText`), when readable. */
async function readCard(
  deps: RepoReadDeps,
  files: readonly FileRecord[],
): Promise<{ cardData?: Record<string, unknown>; cardText?: string }> {
  const readme = files.find((file) => file.path === "README.md");
  if (!readme || readme.size > MAX_CARD_BYTES) return {};
  const text = await deps.repos.readText(readme);
  if (text === undefined) return {};
  if (text === "") return { cardText: "" };
  const { data, body } = parseFrontMatter(text);
  return { ...(data ? { cardData: data } : {}), cardText: body };
}

/**
 * What a repository's info is computed from besides what its commit fixes (the files, a card): the query and
 * every value that changes without a commit, read on each request. The cache key is all of it, so an input
 * added here is keyed by construction; renderRepoInfo() may read nothing else that can change.
 */
interface RepoInfoInputs {
  repo: RepoRecord;
  commitOid: string;
  withBlobs: boolean;
  /** `expand[]` as given (its order is the answer's). */
  expand: string[];
  /** `full=true`: with `expand`, all that decides a model's fields (model.fields, model.modelExpand). */
  full: boolean;
  usedStorage?: number;
  /** A model repository's catalogue record and what its view adds (mappings in the caller's order...). */
  model?: {
    record?: CatalogueModel;
    /** identityOf(record): the same while the record's row is unchanged (models.shared()). */
    recordIdentity?: number;
    /** Derived from `expand` and `full` alone (modelFieldsOf), so keyed by them. */
    fields: readonly ExpandField[];
    modelExpand: readonly ExpandField[];
    mappings?: ProviderMappings;
    childrenModelCount?: number;
  };
  /** A dataset's or space's likes. */
  likes?: number;
  /** A dataset's downloads (last 30 days) and all-time downloads. */
  downloads?: { downloads: number; downloadsAllTime: number };
  /** The repository is an untouched demo copy of a catalogue model. */
  demoCopy?: DemoCopyFacts;
}

/** A model's fields by `expand` and `full`, kept for the few combinations clients send (bounded: a query is anyone's). */
const modelFields = new Map<
  string,
  { modelExpand: readonly ExpandField[]; fields: readonly ExpandField[] }
>();
const MAX_MODEL_FIELDS = 64;
function modelFieldsOf(expand: readonly string[], full: boolean) {
  const key = `${full}\n${expand.join("\n")}`;
  const kept = modelFields.get(key);
  if (kept) return kept;
  const modelExpand = parseExpand(
    expand.filter((field) => !REPO_EXPAND_FIELDS.includes(field)),
    "detail",
  );
  const derived = { modelExpand, fields: fieldsFor("detail", modelExpand, full) };
  if (modelFields.size < MAX_MODEL_FIELDS) modelFields.set(key, derived);
  return derived;
}

/** Repository info answers by their inputs, per set of dependencies (one hub). */
const infoAnswers = new WeakMap<RepoReadDeps, RevisionAnswerCache>();

/** GET /api/{type}s/{id} and /revision/{rev}: the model record (for models) merged with the repository's. */
export async function repoInfo(deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  const { repo, knownRef } = assignedRepo(c);
  const revision = target.action === "revision" ? target.rest.join("/") : "main";
  const { commitOid } = await deps.repos.resolveOrThrow(repo, revision, knownRef);
  const expand = queryList(c, "expand")
    .flatMap((value) => value.split(","))
    .filter(Boolean);
  const wants = (field: string) => expand.length === 0 || expand.includes(field);
  const inputs: RepoInfoInputs = {
    repo,
    commitOid,
    withBlobs: queryBoolean(c, "blobs") ?? false,
    expand,
    full: queryBoolean(c, "full") ?? false,
    // The storage sum costs a query over every file of every commit: a caller that names its fields without
    // it (the web app's model page) does not pay for it.
    usedStorage: wants("usedStorage") ? await deps.repos.usedStorage(repo) : undefined,
    demoCopy: repo.type === "model" ? await deps.catalogue.demoCopy?.(repo.key) : undefined,
  };
  if (repo.type === "model") {
    const record = await deps.catalogue.model(repo.id);
    const { modelExpand, fields } = modelFieldsOf(expand, inputs.full);
    inputs.model = {
      record,
      recordIdentity: record ? identityOf(record) : undefined,
      fields,
      modelExpand,
      mappings: record && needsMappings(fields) ? await deps.catalogue.mappingsFor(c, record.id) : undefined,
      childrenModelCount:
        record && fields.includes("childrenModelCount")
          ? await deps.catalogue.countChildren(record.id)
          : undefined,
    };
  } else {
    inputs.likes = (await deps.engagement?.likesOf(deps.access.actor(c), repo))?.likes ?? 0;
    // A dataset's downloads as the public hub gives them: the last 30 days, and all of them. A space has none.
    if (repo.type === "dataset" && deps.engagement)
      inputs.downloads = await deps.engagement.downloadsOf(repo);
  }
  // huggingface_hub's model_info(securityStatus=True): scans finish without a commit, so never kept.
  if (queryBoolean(c, "securityStatus") && deps.scanning) {
    const view = await renderRepoInfo(deps, inputs);
    const all = await deps.repos.files(repo, commitOid);
    view.securityRepoStatus = await deps.scanning.repoStatus(all);
    return jsonAnswer(c, JSON.stringify(view), etagOf);
  }
  const answers = infoAnswers.get(deps) ?? new RevisionAnswerCache();
  infoAnswers.set(deps, answers);
  // The catalogue record is keyed by its identity (recordIdentity), the model's fields by what they derive
  // from (expand, full), everything else by value; left out of the key's text by a copy rather than a
  // replacer, which would call back for every value (~40 µs a request).
  const { model } = inputs;
  const key = JSON.stringify(
    model
      ? { ...inputs, model: { ...model, record: undefined, fields: undefined, modelExpand: undefined } }
      : inputs,
  );
  const answer = answers.get(key) ?? answers.set(key, JSON.stringify(await renderRepoInfo(deps, inputs)));
  return jsonAnswer(c, answer.body, () => answer.etag);
}

/** A JSON answer with its ETag; 304 without a body when the client holds these bytes already. */
function jsonAnswer(c: Context, body: string, etag: (body: string) => string): Response {
  const tag = etag(body);
  if (matchesIfNoneMatch(c.req.header("If-None-Match"), tag)) return c.body(null, 304, { ETag: tag });
  return c.body(body, 200, { "Content-Type": "application/json", ETag: tag });
}

/** A repository's info from its inputs and what its commit fixes (files, card): nothing else may be read. */
async function renderRepoInfo(deps: RepoReadDeps, inputs: RepoInfoInputs): Promise<Record<string, unknown>> {
  const { repo, commitOid, withBlobs, expand } = inputs;
  const wants = (field: string) => expand.length === 0 || expand.includes(field);
  // The file list costs a query over every file: a caller that names its fields without it does not pay.
  const files = wants("siblings") ? await deps.repos.files(repo, commitOid) : [];
  const siblings = files.map((file) =>
    withBlobs
      ? {
          rfilename: file.path,
          size: file.size,
          blobId: file.blobOid,
          ...(file.lfs
            ? {
                lfs: {
                  sha256: file.sha256,
                  size: file.size,
                  pointerSize: lfsPointerSize(file.sha256, file.size),
                },
              }
            : {}),
        }
      : { rfilename: file.path },
  );
  const { demoCopy } = inputs;
  const repoFields: Record<string, unknown> = {
    author: repo.owner,
    sha: commitOid,
    // A demo copy's dates are its original's as the catalogue sourced them, or none: the day the copy was
    // made is no date of the model (issue 38).
    lastModified: demoCopy ? undefined : repo.lastModified,
    createdAt: demoCopy ? demoCopy.originalCreatedAt : repo.createdAt,
    private: repo.private,
    gated: repo.gated,
    disabled: false,
    mirror: mirrorField(repo),
    demoCopy: demoCopy
      ? {
          original: demoCopy.originalUrl,
          ...(demoCopy.figures ? { sourceFigures: demoCopy.figures } : {}),
        }
      : undefined,
    siblings,
    usedStorage: inputs.usedStorage,
  };
  let view: Record<string, unknown>;
  if (repo.type === "model") {
    const { record, fields, modelExpand, mappings, childrenModelCount } = inputs.model!;
    view = record
      ? modelView(record, expand.length ? modelExpand : fields, { mappings, childrenModelCount, demoCopy })
      : { id: repo.id, modelId: repo.id };
  } else {
    const card = await readCard(deps, files);
    view = {
      _id: repo.key.toString(16).padStart(24, "0"),
      id: repo.id,
      tags: repoCardTags(repo.type, card.cardData),
      likes: inputs.likes ?? 0,
      ...(repo.type === "dataset"
        ? {
            downloads: inputs.downloads?.downloads ?? 0,
            downloadsAllTime: inputs.downloads?.downloadsAllTime ?? 0,
          }
        : {}),
      ...card,
    };
    if (repo.type === "space") {
      view.sdk = spaceSdk(card.cardData);
    }
  }
  for (const [field, value] of Object.entries(repoFields)) {
    if (expand.length === 0 || expand.includes(field)) view[field] = value;
  }
  return view;
}

/** GET /api/{type}s/{id}/tree/{rev}/{path}: `recursive`, `expand`, cursor pagination through `Link`. */
export async function repoTree(deps: RepoReadDeps, c: Context, _target: RepoApiPath): Promise<Response> {
  const { repo } = assignedRepo(c);
  const { commitOid, path: pathParts } = assignedRevision(c);
  const dir = pathParts.length ? parseFolderPath(pathParts.join("/")) : "";
  const entries = await deps.repos.tree(repo, commitOid, dir, queryBoolean(c, "recursive") ?? false);
  if (!entries) throw new EntryNotFoundError(dir);
  const expand = queryBoolean(c, "expand") ?? false;
  const limit = queryInteger(c, "limit", { min: 1, max: expand ? 1000 : 10_000 }) ?? (expand ? 50 : 1000);
  const cursor = queryOne(c, "cursor");
  const start = cursor ? Number(Buffer.from(cursor, "base64url").toString()) : 0;
  if (!Number.isInteger(start) || start < 0) throw new InvalidInputError("Invalid cursor.");
  const page = await deps.repos.withXetHashes(repo, entries.slice(start, start + limit));
  if (start + limit < entries.length) {
    nextLink(c, deps.publicUrl, "cursor", Buffer.from(String(start + limit)).toString("base64url"));
  }
  return c.json(expand ? await expandWithScans(deps, repo, commitOid, page) : page);
}

/** `expand=true` entries: last commit, and each file's scan status when the hub scans (else `unscanned`). */
async function expandWithScans(
  deps: RepoReadDeps,
  repo: RepoRecord,
  commitOid: string,
  entries: TreeEntryView[],
): Promise<TreeEntryView[]> {
  const expanded = await deps.repos.expandEntries(repo, commitOid, entries);
  if (!deps.scanning) return expanded;
  const files: FileRecord[] = [];
  for (const entry of expanded) {
    if (entry.type !== "file") continue;
    const file = await deps.repos.fileAt(repo, commitOid, entry.path);
    if (file) files.push(file);
  }
  const statuses = await deps.scanning.fileStatuses(files);
  for (const entry of expanded) {
    const status = statuses.get(entry.path);
    if (status) entry.securityFileStatus = status;
  }
  return expanded;
}

/** POST /api/{type}s/{id}/paths-info/{rev}: form (`paths=a&paths=b&expand=true`) or JSON `{paths, expand}`. */
export async function repoPathsInfo(deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  const { repo } = assignedRepo(c);
  const revision = target.rest.join("/");
  const { commitOid } = await deps.repos.resolveOrThrow(repo, revision || "main");
  const bytes = await readBodyBytes(c, 1024 * 1024);
  let paths: unknown[] = [];
  let expand = false;
  if ((c.req.header("Content-Type") ?? "").includes("json")) {
    const parsed = bytes.length === 0 ? {} : jsonObject(parseJsonBody(bytes));
    paths = Array.isArray(parsed.paths) ? parsed.paths : [parsed.paths];
    expand = parsed.expand === true || parsed.expand === "true";
  } else {
    const form = new URLSearchParams(Buffer.from(bytes).toString());
    paths = [...form.getAll("paths"), ...form.getAll("paths[]")];
    expand = form.get("expand") === "true" || form.get("expand") === "True";
  }
  if (paths.length > 1000) throw new InvalidInputError("At most 1000 paths per call.");
  const entries: TreeEntryView[] = [];
  for (const path of paths) {
    const clean = typeof path === "string" ? path.replace(/\/+$/, "") : path;
    const entry = await deps.repos.entryAt(repo, commitOid, parseRepoPath(clean));
    if (entry) entries.push(entry);
  }
  const withXet = await deps.repos.withXetHashes(repo, entries);
  return c.json(expand ? await expandWithScans(deps, repo, commitOid, withXet) : withXet);
}

/**
 * GET /api/{type}s/{id}/commits/{rev}[/{path}]: first-parent history, newest first, paged by `p` and `limit`.
 * A path after the revision (as the public hub's `/{id}/commits/{rev}/{path}` page has it) keeps only the
 * commits that changed it. A revision with unencoded slashes (`feature/x`) still means that branch, as before.
 */
export async function repoCommits(deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  const { repo } = assignedRepo(c);
  const { commitOid, path } = await commitsTarget(deps, repo, target.rest);
  const limit = queryInteger(c, "limit", { min: 1, max: 1000 }) ?? 50;
  const page = queryInteger(c, "p", { min: 0, max: 1_000_000 }) ?? 0;
  const history = await deps.repos.history(repo, commitOid, { page, limit, path });
  if (history.hasNext) nextLink(c, deps.publicUrl, "p", String(page + 1));
  // huggingface_hub's list_repo_commits(formatted=True) asks for the HTML of each title and message.
  const formatted = queryList(c, "expand").includes("formatted");
  return c.json(
    history.commits.map((commit) => ({
      id: commit.oid,
      title: commit.title,
      message: commit.message,
      authors: [{ user: commit.author }],
      date: commit.createdAt,
      ...(formatted
        ? { formatted: { title: escapeHtml(commit.title), message: plainTextToHtml(commit.message) } }
        : {}),
    })),
  );
}

/** The revision and optional path of a commits call; the path must exist (file or folder) at the revision. */
async function commitsTarget(
  deps: RepoReadDeps,
  repo: RepoRecord,
  rest: string[],
): Promise<{ commitOid: string; path?: string }> {
  const whole = rest.join("/") || "main";
  const asRevision = rest.length > 1 ? await deps.repos.resolve(repo, whole) : undefined;
  if (asRevision || rest.length <= 1) {
    return { commitOid: (asRevision ?? (await deps.repos.resolveOrThrow(repo, whole))).commitOid };
  }
  const { revision, rest: pathParts } = splitRevision(rest);
  const { commitOid } = await deps.repos.resolveOrThrow(repo, revision ?? "main");
  const pathText = pathParts.join("/").replace(/\/+$/, "");
  if (pathText === "") return { commitOid };
  const path = parseRepoPath(pathText);
  if (!(await deps.repos.entryAt(repo, commitOid, path))) throw new EntryNotFoundError(path);
  return { commitOid, path };
}

/**
 * GET /api/{type}s/{id}/auth-check[/write] (huggingface_hub's `auth_check`): 200 when the caller may download
 * the repository's files (gated: gated), or with `/write` push to it; otherwise the same error a download or a
 * commit gets (RepoNotFound, GatedRepo, 401/403), which the client turns into its typed exceptions.
 * repoAssignment checks the access (authCheckAccess) before this runs.
 */
export async function repoAuthCheck(_deps: RepoReadDeps, c: Context, target: RepoApiPath): Promise<Response> {
  const [mode, ...rest] = target.rest;
  if (rest.length > 0 || (mode !== undefined && mode !== "write")) {
    throw new NotFoundError(
      "Use /auth-check to check read access, or /auth-check/write to check write access.",
    );
  }
  const { repo } = assignedRepo(c);
  return c.json({ id: repo.id, type: repo.type, access: mode === "write" ? "write" : "read" });
}

/** What auth-check checks: reading the files, or with `/write` writing the repository. */
export function authCheckAccess(_c: Context, target: RepoApiPath): RepoAction {
  return target.rest[0] === "write" ? "write" : "read-files";
}

/** GET /api/{type}s/{id}/refs: branches, tags, and with `include_prs=1` pull-request refs. */
export async function repoRefs(deps: RepoReadDeps, c: Context, _target: RepoApiPath): Promise<Response> {
  const { repo } = assignedRepo(c);
  const refs = await deps.repos.refs(repo);
  const view = (prefix: string) =>
    refs
      .filter((ref) => ref.name.startsWith(prefix))
      .map((ref) => ({ name: ref.name.slice(prefix.length), ref: ref.name, targetCommit: ref.commitOid }));
  return c.json({
    branches: view("refs/heads/"),
    converts: [],
    tags: view("refs/tags/"),
    ...(queryBoolean(c, "include_prs") ? { pullRequests: view("refs/pr/") } : {}),
  });
}

export function repoUrl(publicUrl: string, repo: Pick<RepoRecord, "type" | "id">): string {
  const prefix = repo.type === "model" ? "" : `${repo.type}s/`;
  return `${publicUrl}/${prefix}${repo.id}`;
}
