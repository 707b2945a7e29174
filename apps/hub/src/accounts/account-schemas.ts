import { z } from "zod";
import { queryParam } from "../http/validate.js";
import { ORG_ROLES } from "./types.js";

/**
 * Schemas of what the accounts and admin routes take. Names, passwords, emails and token requests are
 * checked by the accounts service (the admin CLI goes through it too); these check the shape around them.
 */

/** `/{id}` of a token: a positive integer. */
export const tokenIdParam = z.object({
  id: z
    .string()
    .regex(/^\d{1,12}$/, { error: "must be a token id (a positive integer)." })
    .transform(Number),
});

/** `?since=`: an ISO date; absent: the default window (usage-query.ts). */
export const usageQuery = z.object({
  since: queryParam(
    z
      .string()
      .refine((value) => !Number.isNaN(Date.parse(value)), { error: "must be an ISO date." })
      .optional(),
  ),
});

/** `expiresInDays` of an invite link; its range is checked by the invites service. */
export const inviteRequest = z.object({ expiresInDays: z.number().nullish() });

export const orgRole = z.enum(ORG_ROLES);

/** `PUT /api/organizations/{org}/members/{user}`. */
export const memberRequest = z.object({ role: orgRole });

/** `POST /api/organizations/{org}/invites`: the role it grants (default read) and its lifetime. */
export const orgInviteRequest = inviteRequest.extend({
  role: orgRole.nullish().transform((role) => role ?? "read"),
});

/** `POST /api/organizations` (the owner is the caller) and `POST /api/admin/orgs` (with `owner`). */
export const orgRequest = z.object({ name: z.string(), fullname: z.string().nullish() });

/** A new account: the service checks each field (name rules, password strength, email). */
export const accountRequest = z.object({
  name: z.string(),
  fullname: z.string().nullish(),
  email: z.string().nullish(),
  password: z.string().optional(),
});

export const profileChange = z.object({ fullname: z.string().nullish(), email: z.string().nullish() });

export const passwordChange = z.object({ currentPassword: z.string().optional(), newPassword: z.string() });
