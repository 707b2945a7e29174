import { InferenceClient } from "@modelhub/inference";
import { tokenProblem } from "./access-token.js";

/**
 * A client that goes through this hub: mappings from its API, calls through its router. The token, if
 * the reader gives one, is sent only in these calls, which the reader starts. Without one, a signed-in
 * reader's calls go with their session: the browser sends the cookie, and this adds the session's CSRF token
 * (the router takes a session only with it), on calls to this hub only.
 */
export function playgroundClient(
  hubUrl: string,
  accessToken: string,
  csrfToken?: string,
  /** Sees each answer's head, e.g. to tell a simulated one (simulatedAnswer). */
  onResponse?: (response: Response) => void,
): InferenceClient {
  // A token the router cannot take is never sent: the client would call the provider directly with it.
  const problem = tokenProblem(accessToken);
  if (problem) throw new Error(problem);
  const token = accessToken.trim();
  const send = token || !csrfToken ? undefined : withSession(hubUrl, csrfToken);
  return new InferenceClient(token || undefined, {
    hubUrl,
    routerUrl: `${hubUrl}/router`,
    retryOnError: false,
    ...(send || onResponse
      ? { fetch: watched(send ?? ((input, init) => fetch(input, init)), onResponse) }
      : {}),
  });
}

function watched(send: typeof fetch, onResponse: ((response: Response) => void) | undefined): typeof fetch {
  if (!onResponse) return send;
  return async (input, init) => {
    const response = await send(input, init);
    onResponse(response);
    return response;
  };
}

/**
 * What provider-sim puts on every answer (its SIMULATED_HEADER), which the hub's router passes on: a JSON
 * answer (a transcript, labels) has no file to carry the simulator's mark.
 */
export function simulatedAnswer(response: Response): boolean {
  return response.headers.get("x-provider-sim") === "1";
}

/** `fetch` that sends the session's CSRF token to this hub (and to nowhere else). */
export function withSession(hubUrl: string, csrfToken: string): typeof fetch {
  const hub = new URL(hubUrl, globalThis.location?.href).origin;
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), globalThis.location?.href);
    if (url.origin !== hub) return fetch(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set("X-CSRF-Token", csrfToken);
    return fetch(input, { ...init, headers, credentials: "same-origin" });
  };
}

/** What the reader sees when a call fails: the message the client raised. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || /aborted/i.test(error.message));
}
