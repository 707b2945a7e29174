import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type { Context, Handler } from "hono";
import { NotFoundError } from "../errors.js";
import { parseRange } from "../http/byte-range.js";
import { answersToSocket, fileResponseBody } from "../http/file-response-body.js";
import { CAS_PATH } from "../lfs-xet/cas-routes.js";
import type { XetFileRow } from "../lfs-xet/xet-records.js";
import { lfsPointerText } from "./lfs-pointer.js";
import type { RepoReadDeps } from "./read-routes.js";
import { assignedRepo, assignedRevision, type RepoEnv } from "./repo-assignment.js";
import { parseRepoPath } from "./repo-path.js";
import type { FileRecord, RepoRecord } from "./repo-records.js";
import { URL_PREFIX } from "./repo-target.js";

/** The media type of a Xet file's download information, answered instead of its bytes when asked for. */
const XET_FILE_INFO = "application/vnd.xet-fileinfo+json";

const CONTENT_TYPES: Record<string, string> = {
  json: "application/json",
  md: "text/markdown; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  jinja: "text/plain; charset=utf-8",
  py: "text/x-python; charset=utf-8",
  yaml: "text/yaml; charset=utf-8",
  yml: "text/yaml; charset=utf-8",
  html: "text/plain; charset=utf-8",
  gitattributes: "text/plain; charset=utf-8",
};

/** How long a presigned download URL stays valid: a large download must be able to start (and resume). */
const REDIRECT_URL_SECONDS = 60 * 60;

function contentType(path: string, lfs: boolean): string {
  if (lfs) return "application/octet-stream";
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? "application/octet-stream";
}

function contentDisposition(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `inline; filename*=UTF-8''${encodeURIComponent(name)}; filename="${ascii}";`;
}

/** Who downloads, for counting: a signed-in user, else the connection's address (as the public hub counts). */
function downloadClient(deps: RepoReadDeps, c: Context): string {
  const actor = deps.access.actor(c);
  if (actor.kind === "user") return `user:${actor.user.id}`;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return `address:${incoming?.socket?.remoteAddress ?? "unknown"}`;
}

/**
 * GET and HEAD of a file at a revision, with the headers huggingface_hub, transformers and @huggingface/hub
 * read: X-Repo-Commit, ETag (git blob id; sha256 for LFS files), X-Linked-Etag and X-Linked-Size (LFS),
 * ranges (206/416) and If-None-Match (304). `/resolve/` gives an LFS file's content, `/raw/` its pointer.
 * A moved repository answers a relative 307 to its new id, which the clients follow.
 */
export function resolveFile(deps: RepoReadDeps, mode: "resolve" | "raw"): Handler<RepoEnv> {
  return async (c) => {
    const { repo, moved, target } = assignedRepo(c);
    if (moved) {
      c.header(
        "Location",
        `/${URL_PREFIX[target.type]}${repo.id}/${mode}/${rawTail(new URL(c.req.url).pathname, c.req.param())}`,
      );
      return c.body(null, 307);
    }
    const { commitOid, path: pathParts } = assignedRevision(c);
    const path = parseRepoPath(pathParts.join("/"));
    const file = await deps.repos.file(repo, commitOid, path);
    // SCAN_POLICY=block: an unsafe file's bytes are refused on every surface that serves them (the pointer of
    // an LFS file is not its bytes). A mirrored file not held yet is fetched and scanned before it is served.
    if (deps.scanning && !(mode === "raw" && file.lfs)) {
      await deps.scanning.assertServable(repo, file, mirrorFetch(deps, repo, commitOid, file));
    }
    // A model's GET counts toward its downloads when its library's rule says so (HEADs never: huggingface_hub
    // checks each cached file with one); a dataset's GET or HEAD, once per client and 5 minutes, as the public
    // hub counts them. Only an entry in memory here; written in batches.
    if (mode === "resolve" && (c.req.method === "GET" || repo.type === "dataset")) {
      deps.downloads?.record(repo, path, downloadClient(deps, c));
    }
    // An LFS file whose content is stored through Xet: Xet-capable clients are told its file hash and where to
    // get a read token; everyone else gets the bytes, reconstructed here.
    const xetFile = file.lfs && deps.cas ? await deps.cas.fileOfContent(repo.key, file.sha256) : undefined;
    const xetHeaders: Record<string, string> = {};
    if (xetFile && mode === "resolve") {
      const refreshUrl = `${deps.publicUrl}/api/${repo.type}s/${repo.id}/xet-read-token/${commitOid}`;
      const reconstructionUrl = `${deps.publicUrl}${CAS_PATH}/v1/reconstructions/${xetFile.hash}`;
      xetHeaders["X-Xet-Hash"] = xetFile.hash;
      xetHeaders.Link = `<${refreshUrl}>; rel="xet-auth", <${reconstructionUrl}>; rel="xet-reconstruction-info"`;
      // @huggingface/hub asks for the Xet file info instead of the bytes (then downloads through the CAS).
      if ((c.req.header("Accept") ?? "").includes(XET_FILE_INFO)) {
        return c.json(
          {
            casUrl: `${deps.publicUrl}${CAS_PATH}`,
            hash: xetFile.hash,
            refreshUrl,
            reconstructionUrl,
            etag: file.sha256,
            size: file.size,
          },
          200,
          {
            ...xetHeaders,
            "Content-Type": XET_FILE_INFO,
            "X-Repo-Commit": commitOid,
            ETag: `"${file.sha256}"`,
            "X-Linked-Etag": `"${file.sha256}"`,
            "X-Linked-Size": String(file.size),
            Vary: "Accept",
            "Access-Control-Expose-Headers":
              "X-Repo-Commit, ETag, X-Linked-Etag, X-Linked-Size, X-Xet-Hash, Link, X-Request-Id",
          },
        );
      }
    }
    return serveFile(c, deps, repo, file, commitOid, mode === "raw" && file.lfs, xetFile, xetHeaders);
  };
}

/** Brings a mirrored LFS content this hub does not hold yet (read whole once), for a scan before serving. */
function mirrorFetch(
  deps: RepoReadDeps,
  repo: RepoRecord,
  commitOid: string,
  file: FileRecord,
): (() => Promise<void>) | undefined {
  const open = deps.mirror?.openMissingContent;
  if (!open || repo.mirrorOf === undefined || !file.lfs || file.size === 0) return undefined;
  return async () => {
    if (await deps.repos.mirroredContentHeld(file.sha256)) return;
    const stream = await open(repo, commitOid, file, { start: 0, end: file.size - 1 });
    stream.resume();
    await finished(stream);
  };
}

/**
 * DOWNLOAD_OFFLOAD=x-accel: the internal URL nginx serves a stored content from, or undefined when the hub
 * sends the bytes itself (offload off, or content not in the blob store as such: a mirrored file still to
 * fetch). A Xet file counts only once its bytes are in the blob store (the caller checks).
 */
function offloadTarget(deps: RepoReadDeps, file: FileRecord, missingMirrored: boolean): string | undefined {
  const relativePath = deps.offloadPrefix ? deps.repos.blobRelativePath?.(file.sha256) : undefined;
  if (!relativePath || missingMirrored) return undefined;
  return `${deps.offloadPrefix}${relativePath}`;
}

/**
 * The revision and path of a file URL as the client sent them (still encoded): what a moved repository's
 * redirect repeats. They follow the optional datasets|spaces prefix, the id's one or two segments and the mode.
 */
function rawTail(path: string, params: Record<string, string>): string {
  const skipped = 1 + (params.prefix ? 1 : 0) + (params.namespace ? 2 : 1) + 1;
  return path.split("/").slice(skipped).join("/");
}

async function serveFile(
  c: Context,
  deps: RepoReadDeps,
  repo: RepoRecord,
  file: FileRecord,
  commitOid: string,
  pointerOnly: boolean,
  xetFile?: XetFileRow,
  xetHeaders: Record<string, string> = {},
): Promise<Response> {
  const etag = `"${file.lfs && !pointerOnly ? file.sha256 : file.blobOid}"`;
  const headers: Record<string, string> = {
    "X-Repo-Commit": commitOid,
    ETag: etag,
    "Accept-Ranges": "bytes",
    "Content-Disposition": contentDisposition(file.path),
    "Content-Type": contentType(file.path, file.lfs && !pointerOnly),
    "Cache-Control": "private, max-age=0, must-revalidate",
    "Access-Control-Expose-Headers":
      "X-Repo-Commit, ETag, X-Linked-Etag, X-Linked-Size, Content-Range, Content-Length, Accept-Ranges, X-Error-Code, X-Error-Message, X-Request-Id, X-Xet-Hash, Link",
    ...xetHeaders,
  };
  if (file.lfs && !pointerOnly) {
    headers["X-Linked-Etag"] = etag;
    headers["X-Linked-Size"] = String(file.size);
  }
  const ifNoneMatch = c.req.header("If-None-Match");
  if (ifNoneMatch?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  if (pointerOnly) {
    const pointer = Buffer.from(lfsPointerText(file.sha256, file.size));
    headers["Content-Length"] = String(pointer.byteLength);
    return new Response(c.req.method === "HEAD" ? null : pointer, { status: 200, headers });
  }
  // LFS content a mirrored repository declares but this hub does not hold yet is fetched on this read (the
  // mirror's content pull). Its Xet headers only come once it is here (a local Xet file is registered then),
  // so until then every client downloads it plain, through this route, which fetches it.
  // Content counts as here only when the mirror itself fetched it (repo-service mirroredContentHeld): a local
  // upload with the same sha256 is not this repository's to serve. Not here and no upstream: a clear miss.
  const missingMirrored =
    file.lfs &&
    !xetFile &&
    repo.mirrorOf !== undefined &&
    file.size > 0 &&
    !(await deps.repos.mirroredContentHeld(file.sha256));
  if (missingMirrored && !deps.mirror?.openMissingContent) {
    throw new NotFoundError(
      `The content of ${file.path} in the mirrored repository ${repo.id} is not cached on this hub and it mirrors no upstream: import it again (mirror:import) or set UPSTREAM_URL.`,
    );
  }
  // An object store serves LFS content itself: the 302 carries the file's metadata (as the public hub's
  // redirect to its CDN does), and the client follows it without the hub's Authorization header.
  const downloadUrl = deps.repos.downloadUrl;
  if (deps.redirectDownloads && downloadUrl && file.lfs && !xetFile && file.size > 0 && !missingMirrored) {
    headers.Location = await downloadUrl(file.sha256, {
      contentDisposition: headers["Content-Disposition"]!,
      contentType: headers["Content-Type"]!,
      expiresInSeconds: REDIRECT_URL_SECONDS,
    });
    return new Response(null, { status: 302, headers });
  }
  const range = parseRange(c.req.header("Range"), file.size);
  if (range.kind === "unsatisfiable") {
    headers["Content-Range"] = `bytes */${file.size}`;
    return new Response(null, { status: 416, headers });
  }
  const status = range.kind === "range" ? 206 : 200;
  const start = range.kind === "range" ? range.start : 0;
  const end = range.kind === "range" ? range.end : file.size - 1;
  headers["Content-Length"] = String(Math.max(0, end - start + 1));
  if (range.kind === "range") headers["Content-Range"] = `bytes ${start}-${end}/${file.size}`;
  if (c.req.method === "HEAD" || file.size === 0) return new Response(null, { status, headers });
  const offloaded = offloadTarget(deps, file, missingMirrored);
  if (offloaded && (!xetFile || (await deps.repos.storedContent(file.sha256)))) {
    // nginx sends the bytes from its internal location and answers the Range itself (the same single range
    // this route accepted), so its own Content-Length and Content-Range are the ones sent.
    delete headers["Content-Length"];
    delete headers["Content-Range"];
    headers["X-Accel-Redirect"] = offloaded;
    return new Response(null, { status: 200, headers });
  }
  // A mirrored file read from what this hub holds: a cache hit, kept from eviction while it streams.
  const release =
    file.lfs && repo.mirrorOf !== undefined && !missingMirrored
      ? deps.mirror?.trackCachedRead?.(repo, file)
      : undefined;
  if (xetFile && deps.cas && !(await deps.repos.storedContent(file.sha256))) {
    const reconstructed = Readable.from(deps.cas.read(xetFile, start, end));
    if (release) reconstructed.once("close", release);
    return new Response(Readable.toWeb(reconstructed) as ReadableStream, { status, headers });
  }
  // A blob on this machine's disk, answered to a socket, is read into reused buffers (http/file-response-body.ts):
  // a stream of fresh buffers through Readable.toWeb cost a download about twice the CPU per GiB
  // (bench/results/2026-11-30-serve.md: 1.64 against 0.78 CPU s/GiB, the bare node floor 0.62-0.70). Only the node server's writer hands each chunk on before the next
  // read; an in-process reader (`app.request()`) keeps them, so it gets the stream below. A mirrored cache
  // read goes this way too (bench:mirror's warm download got the stream, at 0.37x a local one): its release
  // comes when the answer is over.
  const localPath =
    missingMirrored || !answersToSocket(c) ? undefined : deps.repos.blobLocalPath?.(file.sha256);
  if (localPath && (await deps.repos.storedContent(file.sha256))) {
    return new Response(fileResponseBody(localPath, { start, end }, release), { status, headers });
  }
  // A mirrored file being fetched, answered to a socket: its bytes come in reused buffers too (content-pull.ts).
  if (missingMirrored && answersToSocket(c) && deps.mirror?.openMissingBody) {
    const body = await deps.mirror.openMissingBody(repo, commitOid, file, { start, end });
    return new Response(body, { status, headers });
  }
  const stream = missingMirrored
    ? await deps.mirror!.openMissingContent!(repo, commitOid, file, { start, end })
    : await deps.repos.openContent(file.sha256, { start, end }).catch((error: unknown) => {
        release?.();
        throw error;
      });
  if (release) stream.once("close", release);
  // A web stream over the blob store's: @hono/node-server pipes it into the socket with back-pressure, and a
  // client that goes away cancels it (which destroys the file or object-store stream).
  return new Response(Readable.toWeb(stream) as ReadableStream, { status, headers });
}
