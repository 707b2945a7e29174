import type { AccountsStore } from "../accounts/accounts-store.js";
import {
  type AccessToken,
  FINE_GRAINED_PERMISSIONS,
  type FineGrained,
  type FineGrainedPermission,
  type FineGrainedScope,
  REPO_TYPES,
  TOKEN_ROLES,
  type TokenRole,
} from "../accounts/types.js";
import { InvalidInputError } from "../errors.js";
import { isObject } from "../is-object.js";
import { generateHubToken, hashToken, tokenHint } from "./hub-tokens.js";

export interface IssuedToken extends AccessToken {
  /** The token itself: shown once, never stored. */
  token: string;
}

export interface TokenRequest {
  name: string;
  role: TokenRole;
  fineGrained: FineGrained | null;
  expiresAt: string | null;
}

function parsePermissions(raw: unknown, where: string): FineGrainedPermission[] {
  if (
    !Array.isArray(raw) ||
    !raw.every((p) => FINE_GRAINED_PERMISSIONS.includes(p as FineGrainedPermission))
  ) {
    throw new InvalidInputError(`${where} must be an array of: ${FINE_GRAINED_PERMISSIONS.join(", ")}.`);
  }
  return [...new Set(raw as FineGrainedPermission[])];
}

function parseFineGrained(raw: unknown): FineGrained {
  if (!isObject(raw))
    throw new InvalidInputError('"fineGrained" must be an object {global, scoped, canReadGatedRepos}.');
  const global = parsePermissions(raw.global ?? [], '"fineGrained.global"');
  if (!Array.isArray(raw.scoped ?? [])) throw new InvalidInputError('"fineGrained.scoped" must be an array.');
  const scoped = ((raw.scoped ?? []) as unknown[]).map((entry, index): FineGrainedScope => {
    const where = `"fineGrained.scoped[${index}]"`;
    if (!isObject(entry) || !isObject(entry.entity))
      throw new InvalidInputError(`${where} needs an entity {type, name}.`);
    const { type, name } = entry.entity;
    const types = ["user", "org", ...REPO_TYPES];
    if (
      typeof type !== "string" ||
      !types.includes(type) ||
      typeof name !== "string" ||
      name.length === 0 ||
      name.length > 200
    ) {
      throw new InvalidInputError(`${where}.entity needs a type (${types.join(", ")}) and a name.`);
    }
    return {
      entity: { type: type as FineGrainedScope["entity"]["type"], name },
      permissions: parsePermissions(entry.permissions, `${where}.permissions`),
    };
  });
  return { canReadGatedRepos: raw.canReadGatedRepos === true, global, scoped };
}

/**
 * Validates a token request: `{name, role: "read"|"write"|"fineGrained", fineGrained?, expiresAt?}`
 * (`expiresAt` an ISO date in the future). Legacy admin requests `{name, scopes: ["inference", "read"]}`
 * are read as the nearest role, as the migration of the old hub tokens does.
 */
export function parseTokenRequest(input: unknown, now: Date = new Date()): TokenRequest {
  if (!isObject(input))
    throw new InvalidInputError("Expected a JSON object {name, role, fineGrained?, expiresAt?}.");
  const { name, scopes, expiresAt } = input;
  if (typeof name !== "string" || name.trim().length === 0 || name.length > 100 || /[\p{Cc}]/u.test(name)) {
    throw new InvalidInputError('"name" must be a non-empty string of at most 100 characters.');
  }
  let role = input.role ?? (scopes === undefined ? "read" : undefined);
  let fineGrained: FineGrained | null = null;
  if (role === undefined) {
    if (
      !Array.isArray(scopes) ||
      scopes.length === 0 ||
      !scopes.every((s) => s === "inference" || s === "read")
    ) {
      throw new InvalidInputError('"scopes" must be a non-empty array of: inference, read.');
    }
    role = scopes.includes("read") ? "read" : "fineGrained";
    if (role === "fineGrained")
      fineGrained = { canReadGatedRepos: false, global: ["inference.serverless.write"], scoped: [] };
  } else if (!TOKEN_ROLES.includes(role as TokenRole)) {
    throw new InvalidInputError(`"role" must be one of: ${TOKEN_ROLES.join(", ")}.`);
  } else if (role === "fineGrained") {
    fineGrained = parseFineGrained(input.fineGrained);
  }
  let expiry: string | null = null;
  if (expiresAt !== undefined && expiresAt !== null) {
    const time = typeof expiresAt === "string" ? Date.parse(expiresAt) : Number.NaN;
    if (Number.isNaN(time) || time <= now.getTime()) {
      throw new InvalidInputError('"expiresAt" must be an ISO date in the future.');
    }
    expiry = new Date(time).toISOString();
  }
  return { name: name.trim(), role: role as TokenRole, fineGrained, expiresAt: expiry };
}

/** Issues a user access token; the returned `token` is the only time anyone sees it. */
export async function issueUserToken(
  accounts: AccountsStore,
  userId: number,
  request: TokenRequest,
): Promise<IssuedToken> {
  const token = generateHubToken();
  const info = await accounts.tokens.create({
    ...request,
    userId,
    hash: hashToken(token),
    hint: tokenHint(token),
  });
  return { ...info, token };
}
