import { isInferenceProvider } from "@modelhub/inference";
import { InvalidInputError } from "../errors.js";
import { maskedKey } from "./own-provider-secrets.js";
import type { OwnModelKind } from "./own-providers-table.js";

/**
 * What an own provider's settings must be, whoever adds it (a site administrator: own-providers-service.ts;
 * an organization's admin: org-own-providers-service.ts): one set of checks, one wording of the errors.
 */

const NAME = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** Names `model` suffixes already mean. */
const RESERVED_NAMES = new Set(["auto", "fastest", "cheapest", "preferred"]);
const MODEL_ID = /^[\w.-]+\/[\w.-]+$/;
const KINDS: readonly OwnModelKind[] = ["chat", "embeddings"];
const MAX_TIMEOUT_MS = 600_000;

export function checkName(name: string): void {
  if (!NAME.test(name)) {
    throw new InvalidInputError(
      `A provider name is 1-40 lower-case letters, digits and dashes (not first or last); got "${name.slice(0, 60)}".`,
    );
  }
  if (RESERVED_NAMES.has(name) || isInferenceProvider(name)) {
    throw new InvalidInputError(
      `"${name}" already means something in "model" (a hosted provider or a policy): choose another name.`,
    );
  }
}

export function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidInputError(`baseUrl must be an http(s) URL such as http://gpu-1:8000/v1.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidInputError("baseUrl must be an http:// or https:// URL.");
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new InvalidInputError("baseUrl takes no credentials, query or fragment: give the key as apiKey.");
  }
  return url.href.replace(/\/+$/, "");
}

export function checkHealthPath(path: string): string {
  // `//host/x` is a URL of another host, not a path (it would get the provider's key).
  if (!/^\/[\w\-./~%]{0,200}$/.test(path) || path.includes("..") || path.startsWith("//")) {
    throw new InvalidInputError(
      `healthPath must be a path on the server such as /health; got "${path.slice(0, 100)}".`,
    );
  }
  return path;
}

export function checkTimeout(ms: number, name: string): number {
  if (!Number.isInteger(ms) || ms < 100 || ms > MAX_TIMEOUT_MS) {
    throw new InvalidInputError(
      `${name} must be a whole number of milliseconds from 100 to ${MAX_TIMEOUT_MS}.`,
    );
  }
  return ms;
}

export function checkKind(kind: string): OwnModelKind {
  if (!KINDS.includes(kind as OwnModelKind)) {
    throw new InvalidInputError(`kind must be one of ${KINDS.join(", ")}; got "${kind.slice(0, 20)}".`);
  }
  return kind as OwnModelKind;
}

export function checkApiKey(key: string): string {
  if (!/^[\x21-\x7e]{1,4096}$/.test(key)) {
    throw new InvalidInputError("apiKey must be 1-4096 printable ASCII characters without spaces.");
  }
  return key;
}

export function checkModelId(model: string): string {
  if (!MODEL_ID.test(model)) {
    throw new InvalidInputError(`"model" must be a hub model id "owner/name"; got "${model.slice(0, 100)}".`);
  }
  return model;
}

export function checkServedName(servedName: string): string {
  if (!/^[\x21-\x7e]{1,300}$/.test(servedName)) {
    throw new InvalidInputError(
      "servedName must be the server's model name: 1-300 printable characters, no spaces.",
    );
  }
  return servedName;
}

/** What an offer may say: prices in USD per million tokens, the context length in tokens. */
export interface OfferFigures {
  inputPrice?: number;
  outputPrice?: number;
  contextLength?: number;
}

/** Checks an offer's figures (a site's offer, or an organization's price for its provider). */
export function checkOfferFigures(input: OfferFigures): void {
  for (const [key, value] of [
    ["inputPrice", input.inputPrice],
    ["outputPrice", input.outputPrice],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value >= 0 && value < 1e6)) {
      throw new InvalidInputError(`${key} must be USD per million tokens, from 0 to 1000000.`);
    }
  }
  const context = input.contextLength;
  if (context !== undefined && !(Number.isInteger(context) && context > 0 && context <= 1e8)) {
    throw new InvalidInputError("contextLength must be a whole number of tokens from 1 to 100000000.");
  }
}

export const DEFAULT_OWN_TIMEOUTS = { headersMs: 60_000, idleMs: 60_000 };

/** What an admin may give for a provider's connection, site or organization alike. */
export interface ConnectionInput {
  healthPath?: string;
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
  hostedFailover?: boolean;
}

/**
 * The connection settings to store, checked, with the defaults filled in: the health path defaults to the
 * base URL's `/models`, which every OpenAI-compatible server answers.
 */
export function connectionSettings(input: ConnectionInput, baseUrl: string) {
  return {
    healthPath: checkHealthPath(input.healthPath ?? `${new URL(baseUrl).pathname.replace(/\/$/, "")}/models`),
    headersTimeoutMs: checkTimeout(
      input.headersTimeoutMs ?? DEFAULT_OWN_TIMEOUTS.headersMs,
      "headersTimeoutMs",
    ),
    idleTimeoutMs: checkTimeout(input.idleTimeoutMs ?? DEFAULT_OWN_TIMEOUTS.idleMs, "idleTimeoutMs"),
    hostedFailover: input.hostedFailover ?? true,
  };
}

/** A stored key: sealed, and the masked hint answers show. */
export interface StoredKey {
  apiKeySealed: string | null;
  apiKeyHint: string | null;
}

/**
 * The key to store when a provider is put: the new one sealed; the previous one when the admin gave no key
 * for an existing provider (`keepPrevious`); otherwise none.
 */
export function storedKey(
  apiKey: string | undefined,
  previous: StoredKey | undefined,
  keepPrevious: boolean,
  seal: (key: string) => string,
): StoredKey {
  if (keepPrevious && previous) {
    return { apiKeySealed: previous.apiKeySealed, apiKeyHint: previous.apiKeyHint };
  }
  if (apiKey === undefined) return { apiKeySealed: null, apiKeyHint: null };
  return { apiKeySealed: seal(checkApiKey(apiKey)), apiKeyHint: maskedKey(apiKey) };
}
