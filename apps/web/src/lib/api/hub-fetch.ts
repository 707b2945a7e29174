/** A failed call to the hub API, with the message the hub gave when it gave one. */
export class HubApiError extends Error {
  override readonly name = "HubApiError";
  constructor(
    message: string,
    readonly status: number,
    readonly url: string,
  ) {
    super(message);
  }
}

/** Reads the error message from a hub error body (JSON problem `{error}`/`{message}`/`{detail}`, or text). */
async function readErrorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    for (const key of ["error", "message", "detail", "title"]) {
      const value = body[key];
      if (typeof value === "string" && value) return value;
      if (
        value &&
        typeof value === "object" &&
        typeof (value as { message?: unknown }).message === "string"
      ) {
        return (value as { message: string }).message;
      }
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return text.trim() || `${response.status} ${response.statusText}`;
}

export interface HubResponse<T> {
  data: T;
  headers: Headers;
}

/** GET a JSON document from the hub (same origin), throwing HubApiError on a non-OK status. */
export async function hubGet<T>(path: string, signal?: AbortSignal): Promise<HubResponse<T>> {
  const response = await fetch(path, { headers: { accept: "application/json" }, signal });
  if (!response.ok) throw new HubApiError(await readErrorMessage(response), response.status, path);
  return { data: (await response.json()) as T, headers: response.headers };
}

/** Encodes an `owner/name` model id as a path, keeping the slash between owner and name. */
export function modelPath(modelId: string): string {
  return modelId.split("/").map(encodeURIComponent).join("/");
}

/** The error a failed response carries, as HubApiError. */
export async function hubError(response: Response, url: string): Promise<HubApiError> {
  return new HubApiError(await readErrorMessage(response), response.status, url);
}

/**
 * Sends a state-changing request as the signed-in user: the session cookie goes with it and the session's
 * CSRF token in `X-CSRF-Token` (the hub refuses a cookie-authenticated write without it).
 */
export async function hubSend<T>(
  method: "POST" | "PUT" | "DELETE" | "PATCH",
  path: string,
  csrfToken: string,
  body?: { json: unknown } | { ndjson: unknown[] },
  signal?: AbortSignal,
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", "X-CSRF-Token": csrfToken };
  let payload: string | undefined;
  if (body && "json" in body) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body.json);
  } else if (body) {
    headers["content-type"] = "application/x-ndjson";
    payload = body.ndjson.map((line) => JSON.stringify(line)).join("\n");
  }
  const response = await fetch(path, { method, headers, body: payload, signal });
  if (!response.ok) throw await hubError(response, path);
  const text = await response.text();
  return (text ? JSON.parse(text) : {}) as T;
}
