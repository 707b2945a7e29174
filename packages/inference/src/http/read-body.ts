import { NetworkError, ProviderOutputError } from "../errors.js";

/** The typed error for a body that could not be read: not JSON, or the connection failed mid-read. */
export function bodyReadError(cause: unknown, response: Response): Error {
  if (cause instanceof SyntaxError) {
    return new ProviderOutputError(`Expected a JSON answer from ${response.url || "the server"}`, { cause });
  }
  return new NetworkError(`The connection failed while reading the answer: ${(cause as Error).message}`, {
    cause,
  });
}

export async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch (cause) {
    throw bodyReadError(cause, response);
  }
}

/** JSON when the server says so; anything else (images, audio) is read as a Blob. */
export function isJsonResponse(response: Response): boolean {
  return response.headers.get("content-type")?.includes("json") ?? false;
}
