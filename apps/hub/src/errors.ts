import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

const HUB_ERROR_MARKER = Symbol.for("modelhub.hub.error");

/**
 * Root of every error the hub turns into an HTTP response. `code` is a stable machine-readable string;
 * `message` is safe to show to the caller (it never contains tokens or provider keys).
 */
export class HubError extends Error {
  readonly [HUB_ERROR_MARKER] = true;
  readonly status: ContentfulStatusCode;
  readonly code: string;
  /**
   * Also send the message as `X-Error-Message`: huggingface_hub reads that header to tell errors apart
   * (e.g. "Invalid credentials in Authorization header"). Only for fixed ASCII messages.
   */
  readonly messageHeader: boolean;

  constructor(status: ContentfulStatusCode, code: string, message: string, messageHeader = false) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.messageHeader = messageHeader;
  }

  static isInstance(value: unknown): value is HubError {
    return typeof value === "object" && value !== null && HUB_ERROR_MARKER in value;
  }
}

/** A HubError class whose one argument is the message: `class X extends withStatus(404, "not_found") {}`. */
function withStatus(status: ContentfulStatusCode, code: string) {
  return class extends HubError {
    constructor(message: string) {
      super(status, code, message);
    }
  };
}

/** The request is malformed: bad id, bad query parameter, invalid field in a body. */
export class InvalidInputError extends withStatus(400, "invalid_input") {}

/**
 * The client went away before sending its whole body: nothing to answer and nothing wrong with the hub,
 * so it is logged as a request, not as an error.
 */
export class ClientAbortedError extends HubError {
  constructor() {
    super(400, "client_aborted", "The client closed the connection before sending the whole request body.");
  }
}

export class InvalidJsonError extends HubError {
  constructor(message = "The request body is not valid JSON.") {
    super(400, "invalid_json", message);
  }
}

export class PayloadTooLargeError extends HubError {
  constructor(limitBytes: number) {
    super(413, "payload_too_large", `The request body is larger than the limit of ${limitBytes} bytes.`);
  }
}

export class UnauthorizedError extends withStatus(401, "unauthorized") {}

export class ForbiddenError extends withStatus(403, "forbidden") {}

export class NotFoundError extends withStatus(404, "not_found") {}

export class ConflictError extends withStatus(409, "conflict") {}

/** Well-formed but refused as the public hub refuses it with 422 (a path with backslashes). */
export class UnprocessableError extends withStatus(422, "unprocessable") {}

export class UnsupportedMediaTypeError extends withStatus(415, "unsupported_media_type") {}

/** A dependency the hub needs is not available (e.g. a package not built yet, a disabled feature). */
export class UnavailableError extends withStatus(503, "unavailable") {}

/** The provider behind the router could not be reached or failed before answering. */
export class UpstreamError extends withStatus(502, "upstream_error") {}

export class UpstreamTimeoutError extends HubError {
  constructor(timeoutMs: number) {
    super(504, "upstream_timeout", `The provider did not answer within ${timeoutMs} ms.`);
  }
}

/**
 * Repository errors carry the public hub's `X-Error-Code` values, which huggingface_hub and @huggingface/hub
 * turn into their typed errors (RepositoryNotFoundError, RevisionNotFoundError, EntryNotFoundError,
 * GatedRepoError). A private repository the caller may not see answers exactly as a missing one.
 */
export class RepoNotFoundError extends HubError {
  /**
   * The public hub answers 401 to anonymous callers (they might see the repository once signed in) and 404
   * to everyone else; `X-Error-Message` too, as huggingface_hub reads it. Use `repoNotFound(actor)`
   * (auth/authorize.ts), which picks the status from the caller.
   */
  constructor(id: string, anonymous = false) {
    super(anonymous ? 401 : 404, "RepoNotFound", `Repository not found: ${id}.`, true);
  }
}

export class RevisionNotFoundError extends HubError {
  constructor(revision: string) {
    super(404, "RevisionNotFound", `Invalid rev id: ${revision.slice(0, 200)}`);
  }
}

export class EntryNotFoundError extends HubError {
  constructor(path: string) {
    super(404, "EntryNotFound", `Entry not found: ${path.slice(0, 300)}`);
  }
}

export class GatedRepoError extends HubError {
  /**
   * `type`: "model", "dataset" or "space", named as the public hub names it ("Access to model x/y is
   * restricted", which huggingface_hub's own tests match); `requestUrl`: where a signed-in user asks for access.
   */
  constructor(id: string, signedIn: boolean, requestUrl?: string, type = "repository") {
    super(
      signedIn ? 403 : 401,
      "GatedRepo",
      signedIn
        ? `Access to ${type} ${id} is restricted and you are not in the authorized list.${requestUrl ? ` Visit ${requestUrl} to ask for access.` : ""}`
        : `Access to ${type} ${id} is restricted. You must have access to it and be authenticated to access it. Please log in.`,
      // Repository ids and the hub's URLs are ASCII by their own rules.
      true,
    );
  }
}

/** The repository exists already; the body carries its `url`, which huggingface_hub reads with exist_ok. */
export class RepoExistsError extends HubError {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(409, "conflict", message);
  }
}

/**
 * A commit built on a parent that is no longer the branch's head: 412 Precondition Failed, as the public hub
 * answers it (huggingface_hub's own tests expect 412).
 */
export class StaleParentError extends HubError {
  constructor(parent: string, head: string) {
    super(
      412,
      "precondition_failed",
      `A commit has happened since. Please refresh and try again. (parentCommit ${parent.slice(0, 40)} is not the head ${head})`,
    );
  }
}

/** Storage is full: nothing was written. */
export class InsufficientStorageError extends withStatus(507, "insufficient_storage") {}

/**
 * The JSON body of every error response. It keeps RFC 9457 problem fields (title, status, detail) and the
 * `error` field that Hugging Face clients read from hub error bodies, so both kinds of caller understand it.
 */
export interface ErrorBody {
  error: string;
  code: string;
  status: number;
  title: string;
  detail: string;
  requestId?: string;
  url?: string;
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  507: "Insufficient Storage",
};

export function errorBody(error: HubError, requestId?: string): ErrorBody {
  return {
    error: error.message,
    code: error.code,
    status: error.status,
    title: TITLES[error.status] ?? "Error",
    detail: error.message,
    ...(requestId ? { requestId } : {}),
    ...(error instanceof RepoExistsError ? { url: error.url } : {}),
  };
}

/** The one place errors become responses. Unknown errors become an opaque 500 (details go to the log). */
export function renderError(c: Context, error: unknown): Response {
  const requestId = c.get("requestId") as string | undefined;
  const hubError = HubError.isInstance(error)
    ? error
    : new HubError(500, "internal_error", "The hub failed to handle this request.");
  c.header("Cache-Control", "no-store");
  if (hubError.messageHeader) c.header("X-Error-Message", hubError.message);
  return c.json(errorBody(hubError, requestId), hubError.status);
}
