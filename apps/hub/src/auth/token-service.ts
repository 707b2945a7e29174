import { z } from "zod";
import type { AccountsStore } from "../accounts/accounts-store.js";
import {
  type AccessToken,
  FINE_GRAINED_PERMISSIONS,
  type FineGrained,
  type FineGrainedScope,
  REPO_TYPES,
  TOKEN_ROLES,
  type TokenRole,
} from "../accounts/types.js";
import { parseInput } from "../http/validate.js";
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

/** Fine-grained permissions: each known, each once. */
const permissions = z.array(z.enum(FINE_GRAINED_PERMISSIONS)).transform((list) => [...new Set(list)]);

const fineGrainedSchema = z
  .object(
    {
      global: permissions.nullish().transform((list) => list ?? []),
      scoped: z
        .array(
          z.object({
            entity: z.object({
              type: z.enum(["user", "org", ...REPO_TYPES]),
              name: z.string().min(1).max(200),
            }),
            permissions,
          }),
        )
        .nullish()
        .transform((list): FineGrainedScope[] => list ?? []),
      canReadGatedRepos: z
        .unknown()
        .optional()
        .transform((value) => value === true),
    },
    { error: "must be an object {global, scoped, canReadGatedRepos}." },
  )
  .transform(({ canReadGatedRepos, global, scoped }): FineGrained => ({ canReadGatedRepos, global, scoped }));

/** What a legacy admin request's `scopes` stand for (as the migration of the old hub tokens reads them). */
const LEGACY_INFERENCE: FineGrained = {
  canReadGatedRepos: false,
  global: ["inference.serverless.write"],
  scoped: [],
};

/**
 * A token request: `{name, role: "read"|"write"|"fineGrained", fineGrained?, expiresAt?}` (`expiresAt` an
 * ISO date in the future, at `now`). Legacy admin requests `{name, scopes: ["inference", "read"]}` are read
 * as the nearest role.
 */
export function tokenRequestSchema(now: Date = new Date()) {
  return z
    .object(
      {
        name: z
          .string()
          .refine((name) => name.trim().length > 0 && name.length <= 100 && !/[\p{Cc}]/u.test(name), {
            error: "must be a non-empty string of at most 100 characters.",
          })
          .transform((name) => name.trim()),
        role: z.enum(TOKEN_ROLES).nullish(),
        scopes: z
          .array(z.enum(["inference", "read"]), { error: "must be a non-empty array of: inference, read." })
          .min(1, { error: "must be a non-empty array of: inference, read." })
          .optional(),
        fineGrained: fineGrainedSchema.nullish(),
        expiresAt: z
          .string({ error: "must be an ISO date in the future." })
          .nullish()
          .refine((date) => date == null || Date.parse(date) > now.getTime(), {
            error: "must be an ISO date in the future.",
          })
          .transform((date) => (date == null ? null : new Date(Date.parse(date)).toISOString())),
      },
      { error: "must be a JSON object {name, role, fineGrained?, expiresAt?}." },
    )
    .transform((input, context): TokenRequest => {
      const { name, expiresAt } = input;
      if (input.role == null && input.scopes !== undefined) {
        return input.scopes.includes("read")
          ? { name, role: "read", fineGrained: null, expiresAt }
          : { name, role: "fineGrained", fineGrained: LEGACY_INFERENCE, expiresAt };
      }
      const role = input.role ?? "read";
      if (role !== "fineGrained") return { name, role, fineGrained: null, expiresAt };
      if (!input.fineGrained) {
        context.addIssue({
          code: "custom",
          path: ["fineGrained"],
          message: "must be an object {global, scoped, canReadGatedRepos}.",
        });
        return z.NEVER;
      }
      return { name, role, fineGrained: input.fineGrained, expiresAt };
    });
}

/** Validates a token request (tokenRequestSchema): InvalidInputError naming the field otherwise. */
export function parseTokenRequest(input: unknown, now: Date = new Date()): TokenRequest {
  return parseInput(tokenRequestSchema(now), input);
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
