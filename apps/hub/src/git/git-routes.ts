import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { ForbiddenError, HubError, UnsupportedMediaTypeError } from "../errors.js";
import type { StorageQuotaCheck } from "../limits/storage-quotas.js";
import type { Logger } from "../logger.js";
import type { ContentClaims } from "../repos/content-claims.js";
import { assignedRepo, type RepoEnv, repoAssignment } from "../repos/repo-assignment.js";
import { actorName, type RepoTargetDeps } from "../repos/repo-target.js";
import type { RepoScanning } from "../repos/scan-port.js";
import type { BareRepositories } from "./bare-repository.js";
import { assertClonable } from "./clone-scan.js";
import { spawnGit } from "./git-process.js";
import { applyPushedRef } from "./git-push.js";
import type { LfsDownloads } from "./lfs-downloads.js";
import { openPushSession } from "./push-session.js";

export interface GitRoutesDeps extends RepoTargetDeps {
  /** The bare repositories git serves from; undefined when the hub has no git directory (no data dir). */
  bare?: BareRepositories;
  /** Where pushes run (scratch repositories): the bare repositories' directory. */
  gitDir?: string;
  /** What a push's references are checked against (repos/content-claims.ts). */
  claims: ContentClaims;
  /** Storage quotas, asked before a pushed file's bytes are stored (limits/storage-quotas.ts). */
  quotas?: StorageQuotaCheck;
  /** The scanner: under SCAN_POLICY=block a clone carrying an unsafe file is refused (clone-scan.ts). */
  scanning?: RepoScanning;
  lfsDownloads: LfsDownloads;
  logger?: Logger;
}

/** The realm git shows when it asks for credentials. */
export const GIT_REALM = 'Basic realm="Modelhub"';

/**
 * Paths on which an HTTP Basic password is a hub token (auth/middleware.ts): git and git-lfs send the token
 * that way (any user name); everywhere else a credential is a Bearer token or the session cookie.
 */
export function acceptsBasicCredentials(path: string): boolean {
  return (
    /\/(info\/refs|git-upload-pack|git-receive-pack|info\/lfs\/(objects|locks)\/[a-z]+)$/.test(path) ||
    path.startsWith("/api/lfs-download/")
  );
}

/**
 * A 401 on a git or LFS route asks for credentials (`WWW-Authenticate: Basic`), which is what makes git and
 * git-lfs prompt or ask the credential helper. Anonymous callers get it for a missing repository and for a
 * private one alike (repoNotFound), so it confirms nothing: docs/decisions/git-http.md.
 */
export const askForCredentials: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.status === 401) c.header("WWW-Authenticate", GIT_REALM);
};

/**
 * git prints a refusal's body as "remote: ..." only when it is text/plain: the hub's errors on the smart HTTP
 * routes are rewritten as their message in plain text (the status and headers stay).
 */
const plainTextErrors: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.status < 400) return;
  const message = c.res.headers.get("X-Error-Message") ?? `HTTP ${c.res.status}`;
  const headers = new Headers(c.res.headers);
  headers.set("Content-Type", "text/plain; charset=utf-8");
  headers.delete("Content-Length");
  if (c.res.status === 401) headers.set("WWW-Authenticate", GIT_REALM);
  c.res = new Response(`${message}\n`, { status: c.res.status, headers });
};

/** The protocol version the client asked for (`Git-Protocol: version=2`), passed on to git as is if sane. */
function gitProtocol(c: Context): Record<string, string> {
  const value = c.req.header("Git-Protocol");
  return value && /^[A-Za-z0-9=:._-]{1,100}$/.test(value) ? { GIT_PROTOCOL: value } : {};
}

/**
 * git's smart HTTP protocol (v0 and v2, shallow clones included) for every repository URL (`ids`: the forms
 * repo-routes.ts matches, `/{id}`, `/{id}.git`, `/datasets/{id}`, `/spaces/{id}`), served by `git upload-pack
 * --stateless-rpc` over the repository's materialized bare repository (bare-repository.ts), its input and output
 * streamed. Reading needs what /resolve needs ("read-files": gated repositories need granted access). Also
 * the LFS download URLs the batch API hands out.
 */
export function gitRoutes(deps: GitRoutesDeps, ids: readonly string[]): Hono<RepoEnv> {
  const routes = new Hono<RepoEnv>();
  for (const id of ids) {
    routes.get(
      `${id}/info/refs`,
      plainTextErrors,
      repoAssignment(deps, (c) => (c.req.query("service") === "git-receive-pack" ? "write" : "read-files")),
      async (c) => {
        const service = c.req.query("service");
        if (service === "git-receive-pack") {
          // Writers only (the assignment above); push runs later in a scratch repository (push-session.ts).
          const dir = await bare(deps).current(assignedRepo(c).repo);
          return serveGit(
            deps,
            c,
            dir,
            ["receive-pack", "--stateless-rpc", "--advertise-refs", "."],
            {},
            {
              preamble: "001f# service=git-receive-pack\n0000",
              contentType: "application/x-git-receive-pack-advertisement",
            },
          );
        }
        if (service !== "git-upload-pack") {
          throw new ForbiddenError("Only git's smart HTTP protocol is served: use git 1.6.6 or later.");
        }
        await assertClonable(deps, assignedRepo(c).repo);
        const dir = await bare(deps).current(assignedRepo(c).repo);
        const env = gitProtocol(c);
        // Protocol v2 starts with the capabilities; v0 with the service line, then the refs (as http-backend).
        const preamble = env.GIT_PROTOCOL?.includes("version=2") ? "" : "001e# service=git-upload-pack\n0000";
        return serveGit(deps, c, dir, ["upload-pack", "--stateless-rpc", "--advertise-refs", "."], env, {
          preamble,
          contentType: "application/x-git-upload-pack-advertisement",
        });
      },
    );
    routes.post(`${id}/git-upload-pack`, plainTextErrors, repoAssignment(deps, "read-files"), async (c) => {
      if (c.req.header("Content-Type") !== "application/x-git-upload-pack-request") {
        throw new UnsupportedMediaTypeError("Expected Content-Type: application/x-git-upload-pack-request.");
      }
      await assertClonable(deps, assignedRepo(c).repo);
      const dir = await bare(deps).current(assignedRepo(c).repo);
      return serveGit(deps, c, dir, ["upload-pack", "--stateless-rpc", "."], gitProtocol(c), {
        preamble: "",
        contentType: "application/x-git-upload-pack-result",
        input: true,
      });
    });
    routes.post(`${id}/git-receive-pack`, plainTextErrors, repoAssignment(deps, "write"), async (c) => {
      if (c.req.header("Content-Type") !== "application/x-git-receive-pack-request") {
        throw new UnsupportedMediaTypeError("Expected Content-Type: application/x-git-receive-pack-request.");
      }
      const { repo, actor } = assignedRepo(c);
      const served = await bare(deps).current(repo);
      const session = await openPushSession(
        deps.gitDir!,
        served,
        (update, env, cwd) =>
          applyPushedRef(deps, { repo, actor, author: actorName(actor), cwd, env }, update),
        (error) => {
          if (error instanceof HubError) return error.message;
          deps.logger?.log("error", "git push failed", { repo: repo.id, error: String(error) });
          return "The hub could not apply this ref (an internal error, logged): try again.";
        },
      );
      return serveGit(
        deps,
        c,
        session.dir,
        // No gc in a scratch repository that is deleted once the push is answered.
        [
          "-c",
          "receive.autogc=false",
          // The hub decides which branches may go (git-push.ts: never main), not git's default.
          "-c",
          "receive.denyDeleteCurrent=ignore",
          "receive-pack",
          "--stateless-rpc",
          ".",
        ],
        session.env,
        {
          preamble: "",
          contentType: "application/x-git-receive-pack-result",
          input: true,
          // The pushed objects join the served repository, which is then brought to the hub's new refs at
          // once: a fetch right after the push finds it current (bare-repository.ts imports nothing of it).
          onClose: async () => {
            await session.close();
            await bare(deps)
              .current(repo)
              .catch((error: unknown) =>
                deps.logger?.log("warn", "git: updating the served repository after a push failed", {
                  repo: repo.id,
                  error: String(error),
                }),
              );
          },
        },
      );
    });
  }
  routes.get("/api/lfs-download/:grant", async (c) => {
    const { size, body } = await deps.lfsDownloads.open(c.req.param("grant"), Date.now());
    return new Response(body, {
      headers: { "Content-Type": "application/octet-stream", "Content-Length": String(size) },
    });
  });
  return routes;
}

function bare(deps: GitRoutesDeps): BareRepositories {
  if (!deps.bare) throw new ForbiddenError("git over HTTP is off: this hub has no data directory for it.");
  return deps.bare;
}

/**
 * Runs git with the request body (gunzipped when git compressed it) piped to its stdin and its stdout
 * streamed as the response: nothing is held whole. A client that goes away ends the process.
 */
function serveGit(
  deps: GitRoutesDeps,
  c: Context,
  dir: string,
  args: string[],
  env: Record<string, string>,
  options: { preamble: string; contentType: string; input?: boolean; onClose?: () => Promise<void> },
): Response {
  const child = spawnGit(dir, args, env);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    if (stderr.length < 16 * 1024) stderr += chunk.toString();
  });
  child.once("close", (code) => {
    if (code !== 0 && code !== null) {
      deps.logger?.log(
        "warn",
        `git ${args.find((arg) => !arg.startsWith("-") && !arg.includes("="))} failed`,
        {
          dir,
          code,
          stderr: stderr.trim(),
        },
      );
    }
    options.onClose?.().catch(() => {});
  });
  child.stdin!.on("error", () => {});
  const body = c.req.raw.body;
  if (options.input && body) {
    const source = Readable.fromWeb(body as import("node:stream/web").ReadableStream);
    const streams =
      c.req.header("Content-Encoding") === "gzip"
        ? pipeline(source, createGunzip(), child.stdin!)
        : pipeline(source, child.stdin!);
    streams.catch(() => child.kill());
  } else {
    child.stdin!.end();
  }
  async function* output() {
    if (options.preamble) yield Buffer.from(options.preamble);
    try {
      yield* child.stdout! as AsyncIterable<Buffer>;
    } finally {
      if (child.exitCode === null) child.kill();
    }
  }
  return new Response(Readable.toWeb(Readable.from(output())) as ReadableStream, {
    headers: { "Content-Type": options.contentType, "Cache-Control": "no-cache" },
  });
}
