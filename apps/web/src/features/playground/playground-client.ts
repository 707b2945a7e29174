import { InferenceClient } from "@modelhub/inference";

/**
 * A client that goes through this hub: mappings from its API, calls through its router. The token, if
 * the reader gives one, is sent only in these calls, which the reader starts.
 */
export function playgroundClient(hubUrl: string, accessToken: string): InferenceClient {
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
