import type { IncomingHttpHeaders } from "node:http";
import { headerValue } from "./http.js";

/**
 * How a provider expects its own key. Every provider also accepts a hub token (`Bearer hf_...`): that is the
 * router layout, `{routerUrl}/{provider}/...`, where the hub forwards with its own credentials.
 */
export type AuthScheme =
  /** `Authorization: Bearer <key>` (OpenAI and the OpenAI-compatible providers, Replicate). */
  | "bearer"
  /** `Authorization: Key <key>` (fal.ai). */
  | "fal-key"
  /** `X-Key: <key>` (Black Forest Labs). */
  | "x-key"
  /** Only hub tokens (hf-inference is the hub's own). */
  | "hub-only";

export interface AuthPolicy {
  /** When set, the only hub tokens accepted; otherwise any `hf_` token. */
  hubTokens?: readonly string[];
  /** When set for a provider, the only keys accepted for it; otherwise any non-empty key. */
  providerKeys?: Readonly<Record<string, readonly string[]>>;
}

export type AuthResult =
  | { ok: true; via: "hub-token" | "provider-key" }
  | { ok: false; status: 401 | 403; message: string };

const HUB_TOKEN = /^hf_[A-Za-z0-9_-]+$/;

function hubTokenResult(token: string, policy: AuthPolicy): AuthResult {
  if (!HUB_TOKEN.test(token) || (policy.hubTokens && !policy.hubTokens.includes(token))) {
    return { ok: false, status: 401, message: "Invalid credentials in Authorization header" };
  }
  return { ok: true, via: "hub-token" };
}

function providerKeyResult(provider: string, key: string, policy: AuthPolicy, describe: string): AuthResult {
  const allowed = policy.providerKeys?.[provider];
  if (key.trim() === "" || (allowed && !allowed.includes(key))) {
    return { ok: false, status: 401, message: `Invalid ${describe} provided.` };
  }
  return { ok: true, via: "provider-key" };
}

export function checkAuth(
  provider: string,
  scheme: AuthScheme,
  headers: IncomingHttpHeaders,
  policy: AuthPolicy,
): AuthResult {
  const authorization = headerValue(headers, "authorization");
  const bearer = authorization?.match(/^Bearer (.*)$/)?.[1];
  if (bearer?.startsWith("hf_")) return hubTokenResult(bearer, policy);
  switch (scheme) {
    case "hub-only":
      return authorization === undefined
        ? {
            ok: false,
            status: 401,
            message: "You must provide a hub access token (Authorization: Bearer hf_...).",
          }
        : { ok: false, status: 401, message: "Invalid credentials in Authorization header" };
    case "bearer":
      if (bearer === undefined) {
        return {
          ok: false,
          status: 401,
          message:
            authorization === undefined
              ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
              : "Invalid authorization header format: expected `Bearer <key>`.",
        };
      }
      return providerKeyResult(provider, bearer, policy, "API key");
    case "fal-key": {
      const key = authorization?.match(/^Key (.*)$/)?.[1];
      if (key === undefined) {
        return {
          ok: false,
          status: 401,
          message: "No credentials found: expected `Authorization: Key <fal key>` or a hub token.",
        };
      }
      return providerKeyResult(provider, key, policy, "fal key");
    }
    case "x-key": {
      const key = headerValue(headers, "x-key");
      if (key === undefined)
        return { ok: false, status: 403, message: "Not authenticated - Missing X-Key header" };
      const result = providerKeyResult(provider, key, policy, "X-Key");
      return result.ok
        ? result
        : { ok: false, status: 403, message: "Not authenticated - Invalid Authentication" };
    }
  }
}
