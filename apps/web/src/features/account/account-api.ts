import { queryOptions, useQuery } from "@tanstack/react-query";
import { HubApiError, hubGet } from "../../lib/api/hub-fetch.js";
import { queryClient } from "../../lib/query-client.js";

/** Who is signed in on this browser, and the CSRF token their state-changing requests must carry. */
export interface Session {
  name: string;
  isAdmin: boolean;
  csrfToken: string;
}

export interface AccessToken {
  id: number;
  name: string;
  hint: string;
  role: "read" | "write" | "fineGrained";
  fineGrained: {
    canReadGatedRepos: boolean;
    global: string[];
    scoped: Array<{ entity: { type: string; name: string }; permissions: string[] }>;
  } | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Profile {
  name: string;
  fullname: string;
  email: string | null;
  avatarUrl: string;
  isAdmin: boolean;
  createdAt: string;
}

export type OrgRole = "read" | "write" | "admin";

export interface OrgMember {
  name: string;
  fullname: string;
  avatarUrl: string;
  role: OrgRole;
  since: string;
}

export interface Organization {
  name: string;
  fullname: string;
  avatarUrl: string;
  createdAt: string;
  members: OrgMember[];
}

/** `/api/whoami-v2`: the organizations the user belongs to, with their role in each. */
export interface Whoami {
  name: string;
  fullname: string;
  orgs: Array<{ name: string; fullname: string; avatarUrl: string; roleInOrg: OrgRole }>;
}

/** The session, or null when nobody is signed in. */
export const sessionQuery = queryOptions({
  queryKey: ["session"],
  queryFn: async ({ signal }): Promise<Session | null> => {
    const { data } = await hubGet<({ signedIn: true } & Session) | { signedIn: false }>(
      "/api/auth/session",
      signal,
    );
    return data.signedIn ? { name: data.name, isAdmin: data.isAdmin, csrfToken: data.csrfToken } : null;
  },
  staleTime: 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}

/** A GET of the account API as JSON (the session cookie goes along: same origin). */
export function accountQuery<T>(key: readonly unknown[], path: string) {
  return queryOptions({
    queryKey: key,
    queryFn: async ({ signal }) => (await hubGet<T>(path, signal)).data,
  });
}

/**
 * A state-changing call of the account API: JSON in and out, with the session's CSRF token (the hub
 * refuses cookie-authenticated writes without it). Throws HubApiError with the hub's message.
 */
export async function accountSend<T>(
  method: "POST" | "PUT" | "PATCH" | "DELETE",
  path: string,
  body?: unknown,
): Promise<T> {
  const session =
    queryClient.getQueryData(sessionQuery.queryKey) ?? (await queryClient.fetchQuery(sessionQuery));
  const response = await fetch(path, {
    method,
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      ...(session ? { "X-CSRF-Token": session.csrfToken } : {}),
    },
    body: JSON.stringify(body ?? {}),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const message =
      parsed && typeof parsed === "object" && typeof (parsed as { error?: unknown }).error === "string"
        ? (parsed as { error: string }).error
        : `${response.status} ${response.statusText}`;
    throw new HubApiError(message, response.status, path);
  }
  return parsed as T;
}

/**
 * Drops what was read as the previous user, except the site's name and notice (the same for everyone): the
 * header shows them from a query that stays mounted, and a removed query would leave it watching nothing.
 */
function forgetCachedData(): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== "site" });
}

export async function signIn(name: string, password: string): Promise<Session> {
  const signedIn = await accountSend<{ name: string; csrfToken: string }>("POST", "/api/auth/signin", {
    name,
    password,
  });
  // The full session (isAdmin) comes from the hub; everything cached for the anonymous reader goes.
  forgetCachedData();
  const session = await queryClient.fetchQuery(sessionQuery);
  return session ?? { name: signedIn.name, isAdmin: false, csrfToken: signedIn.csrfToken };
}

export async function signOut(): Promise<void> {
  await accountSend("POST", "/api/auth/signout");
  forgetCachedData();
  queryClient.setQueryData(sessionQuery.queryKey, null);
}

/**
 * `next` from the query string, only when it is a path of this site (never another origin): printable ASCII
 * (browsers drop tabs and newlines, so `/\t/evil` is `//evil`), no leading `//`, no backslash (read as `/`).
 * The hub applies the same rule where single sign-on returns (apps/hub/src/http/same-origin-path.ts).
 */
export function safeNext(raw: string | null, fallback = "/models"): string {
  if (raw === null || !/^\/[\x21-\x7e]*$/.test(raw)) return fallback;
  return raw.startsWith("//") || raw.includes("\\") ? fallback : raw;
}
