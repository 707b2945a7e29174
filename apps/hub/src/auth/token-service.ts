import { ForbiddenError, InvalidInputError, UnauthorizedError } from "../errors.js";
import type { Store } from "../store/store.js";
import { TOKEN_SCOPES, type TokenInfo, type TokenScope } from "../store/tokens-table.js";
import { bearerToken, generateHubToken, hashToken, looksLikeHubToken, tokenHint } from "./hub-tokens.js";

export interface IssuedToken extends TokenInfo {
  /** The token itself: shown once, never stored. */
  token: string;
}

export function parseTokenRequest(input: unknown): { name: string; scopes: TokenScope[] } {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new InvalidInputError("Expected a JSON object {name, scopes?}.");
  }
  const { name, scopes } = input as Record<string, unknown>;
  if (typeof name !== "string" || name.trim().length === 0 || name.length > 100) {
    throw new InvalidInputError('"name" must be a non-empty string of at most 100 characters.');
  }
  const list = scopes === undefined ? ["inference"] : scopes;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    !list.every((s) => TOKEN_SCOPES.includes(s as TokenScope))
  ) {
    throw new InvalidInputError(`"scopes" must be a non-empty array of: ${TOKEN_SCOPES.join(", ")}.`);
  }
  return { name: name.trim(), scopes: [...new Set(list as TokenScope[])] };
}

export function issueToken(store: Store, request: { name: string; scopes: TokenScope[] }): IssuedToken {
  const token = generateHubToken();
  const info = store.tokens.create({ ...request, hash: hashToken(token), hint: tokenHint(token) });
  return { ...info, token };
}

/**
 * Checks the `Authorization` header against the hub's tokens and the required scope. The messages say what
 * is wrong without echoing the credential.
 */
export function authenticateHubToken(store: Store, header: string | undefined, scope: TokenScope): TokenInfo {
  const credential = bearerToken(header);
  if (!credential) {
    throw new UnauthorizedError('A hub token is required: send "Authorization: Bearer hf_...".');
  }
  if (!looksLikeHubToken(credential)) throw new UnauthorizedError("Invalid hub token.");
  const token = store.tokens.findByHash(hashToken(credential));
  if (!token) throw new UnauthorizedError("Invalid hub token.");
  if (token.revokedAt) throw new UnauthorizedError("This hub token has been revoked.");
  if (!token.scopes.includes(scope)) throw new ForbiddenError(`This hub token lacks the "${scope}" scope.`);
  return token;
}
