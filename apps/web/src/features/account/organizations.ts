import { accountQuery, accountSend, type Organization, type OrgRole, type Whoami } from "./account-api.js";

export const ORG_ROLES: readonly OrgRole[] = ["read", "write", "admin"];

export const whoamiQuery = accountQuery<Whoami>(["whoami"], "/api/whoami-v2");

export const organizationQuery = (name: string) =>
  accountQuery<Organization>(
    ["organization", name.toLowerCase()],
    `/api/organizations/${encodeURIComponent(name)}`,
  );

export const inviteQuery = (code: string) =>
  accountQuery<{ org: string; fullname: string; role: OrgRole; expiresAt: string }>(
    ["org-invite", code],
    `/api/organizations/invites/${encodeURIComponent(code)}`,
  );

const orgPath = (org: string) => `/api/organizations/${encodeURIComponent(org)}`;

export const createOrganization = (name: string, fullname: string) =>
  accountSend<Organization>("POST", "/api/organizations", { name, fullname: fullname || undefined });

export const setMemberRole = (org: string, user: string, role: OrgRole) =>
  accountSend("PUT", `${orgPath(org)}/members/${encodeURIComponent(user)}`, { role });

/** Removes a member; removing yourself is leaving. */
export const removeMember = (org: string, user: string) =>
  accountSend("DELETE", `${orgPath(org)}/members/${encodeURIComponent(user)}`);

export const createInvite = (org: string, role: OrgRole) =>
  accountSend<{ code: string; url: string; role: OrgRole; expiresAt: string }>(
    "POST",
    `${orgPath(org)}/invites`,
    {
      role,
    },
  );

export const acceptInvite = (code: string) =>
  accountSend<{ org: string; role: OrgRole }>(
    "POST",
    `/api/organizations/invites/${encodeURIComponent(code)}/accept`,
  );
