import { InferenceClient } from "@modelhub/inference";
import { tokenProblem } from "./access-token.js";

/**
 * A client that goes through this hub: mappings from its API, calls through its router. The token, if
 * the reader gives one, is sent only in these calls, which the reader starts.
 */
export function playgroundClient(hubUrl: string, accessToken: string): InferenceClient {
  // A token the router cannot take is never sent: the client would call the provider directly with it.
  const problem = tokenProblem(accessToken);
  if (problem) throw new Error(problem);
  return new InferenceClient(accessToken.trim() || undefined, {
    hubUrl,
    routerUrl: `${hubUrl}/router`,
    retryOnError: false,
  });
}

/** What the reader sees when a call fails: the message the client raised. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || /aborted/i.test(error.message));
}
