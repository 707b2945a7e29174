import { Agent, type Dispatcher, request } from "undici";
import { HubError } from "../errors.js";
import type { MirrorSettings } from "./mirror-config.js";

/**
 * The mirror's HTTP client to the upstream hub: one undici Agent (keep-alive), the hub's UPSTREAM_TOKEN on
 * every request to upstream's origin (never to another origin a redirect leads to: a CDN, Xet storage), and
 * one deadline for connecting and receiving the answer's headers (MIRROR_UPSTREAM_TIMEOUT) so that an upstream
 * that is down or hangs fails the caller fast with the cause. Bodies are not bounded here: a large file
 * streams for as long as it flows (content-pull.ts watches for stalls).
 */

/** Upstream could not be reached, or did not answer in time: the hub serves what it has cached. */
export class UpstreamUnavailableError extends HubError {
  constructor(host: string, cause: string) {
    super(504, "upstream_unavailable", `Upstream ${host} is unreachable: ${cause}.`);
  }
}

/**
 * Upstream answered with an error status. 404 (the caller turns it into its own not-found), 401/403 (this
 * hub's token may not read it), 429 and 5xx (upstream's trouble, answered as 502 with its status).
 */
export class UpstreamStatusError extends HubError {
  constructor(
    readonly upstreamStatus: number,
    host: string,
    path: string,
    detail: string,
  ) {
    const shown = `${path.split("?")[0]!.slice(0, 200)}`;
    super(
      upstreamStatus === 404 ? 404 : upstreamStatus === 401 || upstreamStatus === 403 ? 403 : 502,
      upstreamStatus === 404 ? "upstream_not_found" : "upstream_error",
      upstreamStatus === 401 || upstreamStatus === 403
        ? `Upstream ${host} refused this hub's credential (UPSTREAM_TOKEN) for ${shown} (${upstreamStatus})${detail ? `: ${detail}` : ""}.`
        : `Upstream ${host} answered ${upstreamStatus} for ${shown}${detail ? `: ${detail}` : ""}.`,
    );
  }
}

/**
 * Offline mode: the hub never asks upstream, and this is not cached. `code` is the public hub's error code the
 * clients turn into their typed errors (RepoNotFound: huggingface_hub's RepositoryNotFoundError, with this
 * message), or `mirror_offline` where none fits.
 */
export class MirrorOfflineError extends HubError {
  constructor(
    what: string,
    code: "RepoNotFound" | "RevisionNotFound" | "EntryNotFound" | "mirror_offline" = "mirror_offline",
  ) {
    super(
      404,
      code,
      `${what} is not cached on this hub, and the hub is offline (MIRROR_MODE=offline): it asks its upstream for nothing.`,
    );
  }
}

export interface UpstreamRequestOptions {
  method?: "GET" | "HEAD";
  headers?: Record<string, string>;
  /** Inclusive byte range. */
  range?: { start: number; end: number };
  /** Aborts the request and its body. */
  signal?: AbortSignal;
  /** A credential in place of UPSTREAM_TOKEN (a user's own linked upstream token). */
  token?: string;
  /** Statuses answered as they are rather than thrown (e.g. 404 where the caller wants to branch on it). */
  accept?: readonly number[];
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The URL that answered (after redirects). */
  url: string;
  body: Dispatcher.ResponseData["body"];
}

const MAX_REDIRECTS = 5;
/** What of an error body goes into the message: enough for upstream's reason, never a page of HTML. */
const DETAIL_CHARS = 200;

export interface UpstreamClient {
  /** Upstream's base URL (UPSTREAM_URL). */
  readonly baseUrl: string;
  readonly host: string;
  /**
   * A request to `pathOrUrl` (a path under the base URL, or an absolute URL such as a CAS or CDN address):
   * the answer once its headers arrive, 2xx (and `accept`ed statuses) only; other statuses throw
   * UpstreamStatusError (body read for its reason), no answer in time throws UpstreamUnavailableError.
   */
  request(pathOrUrl: string, options?: UpstreamRequestOptions): Promise<UpstreamResponse>;
  /** GET and parse JSON. */
  json<T>(path: string, options?: Omit<UpstreamRequestOptions, "method" | "range">): Promise<T>;
  /** GET JSON and the `rel="next"` URL of its Link header (upstream's paginated listings), if any. */
  jsonPage<T>(
    pathOrUrl: string,
    options?: Omit<UpstreamRequestOptions, "method" | "range">,
  ): Promise<{ body: T; next: string | undefined }>;
  /** GET a small body whole (regular files), refusing more than `maxBytes`. */
  bytes(path: string, maxBytes: number, options?: Omit<UpstreamRequestOptions, "method">): Promise<Buffer>;
  close(): Promise<void>;
}

/** The `rel="next"` target of a Link header. */
export function nextLink(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(", ") : header;
  if (!value) return undefined;
  for (const part of value.split(",")) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return match[1];
  }
  return undefined;
}

/** The cause of a network failure in words: the code (ECONNREFUSED...) and undici's message. */
function causeOf(error: unknown): string {
  const inner = (error as { cause?: unknown }).cause ?? error;
  const code = (inner as { code?: string }).code;
  const message = inner instanceof Error ? inner.message : String(inner);
  return code && !message.includes(code) ? `${code} ${message}` : message;
}

export function createUpstreamClient(
  settings: Pick<MirrorSettings, "upstreamUrl" | "upstreamToken" | "upstreamTimeoutMs" | "mode">,
  options: { dispatcher?: Dispatcher } = {},
): UpstreamClient {
  const base = new URL(`${settings.upstreamUrl}/`);
  const host = base.host;
  const timeoutMs = settings.upstreamTimeoutMs;
  const ownAgent = options.dispatcher
    ? undefined
    : new Agent({
        connect: { timeout: timeoutMs },
        headersTimeout: timeoutMs,
        // A body that stops flowing is the content puller's to judge (its idle timeout); undici's would cut a
        // slow reader's transfer.
        bodyTimeout: 0,
        keepAliveTimeout: 4_000,
        connections: 64,
      });
  const dispatcher = options.dispatcher ?? ownAgent!;

  const resolveUrl = (pathOrUrl: string) => new URL(pathOrUrl.replace(/^\/+/, ""), base);

  async function send(pathOrUrl: string, init: UpstreamRequestOptions = {}): Promise<UpstreamResponse> {
    if (settings.mode === "offline") {
      // Never reached by the service (it checks the mode first); a guard against a call that forgot to.
      throw new MirrorOfflineError(`${host}${pathOrUrl.split("?")[0]}`);
    }
    let url = resolveUrl(pathOrUrl);
    const deadline = new AbortController();
    const onAbort = () => deadline.abort(init.signal?.reason);
    init.signal?.addEventListener("abort", onAbort, { once: true });
    // One deadline for connecting and the headers of the final answer (redirects included).
    const timer = setTimeout(() => deadline.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    try {
      for (let hop = 0; ; hop++) {
        const sameOrigin = url.origin === base.origin;
        const token = init.token ?? settings.upstreamToken;
        const headers: Record<string, string> = {
          "user-agent": "modelhub-mirror",
          ...init.headers,
          ...(init.range ? { range: `bytes=${init.range.start}-${init.range.end}` } : {}),
          ...(sameOrigin && token ? { authorization: `Bearer ${token}` } : {}),
        };
        let answer: Dispatcher.ResponseData;
        try {
          answer = await request(url, {
            method: init.method ?? "GET",
            headers,
            dispatcher,
            signal: deadline.signal,
          });
        } catch (error) {
          if (init.signal?.aborted) throw error;
          const reason = deadline.signal.aborted ? (deadline.signal.reason as Error).message : causeOf(error);
          throw new UpstreamUnavailableError(host, reason);
        }
        const location = answer.headers.location;
        if (answer.statusCode >= 300 && answer.statusCode < 400 && typeof location === "string") {
          answer.body.resume();
          if (hop >= MAX_REDIRECTS)
            throw new UpstreamStatusError(502, host, url.pathname, "too many redirects");
          url = new URL(location, url);
          continue;
        }
        if (
          (answer.statusCode >= 200 && answer.statusCode < 300) ||
          init.accept?.includes(answer.statusCode)
        ) {
          clearTimeout(timer);
          return {
            status: answer.statusCode,
            headers: answer.headers,
            url: url.toString(),
            body: answer.body,
          };
        }
        const detail = await answer.body.text().then(
          (text) => errorDetail(text),
          () => "",
        );
        throw new UpstreamStatusError(answer.statusCode, host, url.pathname, detail);
      }
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener("abort", onAbort);
    }
  }

  return {
    baseUrl: settings.upstreamUrl,
    host,
    request: send,
    async json<T>(path: string, init: Omit<UpstreamRequestOptions, "method" | "range"> = {}) {
      const answer = await send(path, { ...init, headers: { accept: "application/json", ...init.headers } });
      return (await answer.body.json()) as T;
    },
    async jsonPage<T>(pathOrUrl: string, init: Omit<UpstreamRequestOptions, "method" | "range"> = {}) {
      const answer = await send(pathOrUrl, {
        ...init,
        headers: { accept: "application/json", ...init.headers },
      });
      return { body: (await answer.body.json()) as T, next: nextLink(answer.headers.link) };
    },
    async bytes(path: string, maxBytes: number, init: Omit<UpstreamRequestOptions, "method"> = {}) {
      const answer = await send(path, init);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of answer.body) {
        size += (chunk as Buffer).byteLength;
        if (size > maxBytes) {
          answer.body.destroy();
          throw new UpstreamStatusError(
            502,
            host,
            path,
            `the body is larger than the ${maxBytes} bytes expected`,
          );
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    },
    async close() {
      await ownAgent?.close();
    },
  };
}

/** Upstream's reason from an error body: the public hub's `{"error": "..."}`, else the start of the text. */
function errorDetail(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const reason = parsed.error ?? parsed.message;
    if (typeof reason === "string") return reason.slice(0, DETAIL_CHARS);
  } catch {
    // Not JSON: the text itself.
  }
  return text.replace(/\s+/g, " ").trim().slice(0, DETAIL_CHARS);
}
