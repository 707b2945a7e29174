import { queryOptions } from "@tanstack/react-query";
import { HubApiError, hubGet } from "./hub-fetch.js";

/** Who is signed in (the session cookie), with the CSRF token every state-changing call must send. */
export interface Session {
  name: string;
  isAdmin: boolean;
  csrfToken: string;
}

/** A signed-in user's organizations with their role, from `GET /api/whoami-v2`. */
interface WhoAmI {
  name: string;
  orgs?: Array<{ name: string; roleInOrg?: string }>;
}

export interface Viewer extends Session {
  /** Namespaces the viewer may write to: their own name and the organizations where they write or admin. */
  writableNamespaces: string[];
  /** Namespaces whose repositories the viewer administers: their own name and the organizations they admin. */
  adminNamespaces: string[];
}

/** The signed-in viewer, or null for an anonymous visitor (the hub answers 401). */
export const viewerQuery = () =>
  queryOptions({
    queryKey: ["viewer"],
    queryFn: async ({ signal }): Promise<Viewer | null> => {
      try {
        // `{signedIn: false}` for an anonymous visitor (older hubs answered 401, handled below).
        const { data: session } = await hubGet<Session & { signedIn?: boolean }>("/api/auth/session", signal);
        if (session.signedIn === false || !session.name) return null;
        const { data: whoami } = await hubGet<WhoAmI>("/api/whoami-v2", signal);
        const orgs = (whoami.orgs ?? []).filter(
          (org) => org.roleInOrg === "write" || org.roleInOrg === "admin",
        );
        return {
          ...session,
          writableNamespaces: [session.name, ...orgs.map((org) => org.name)],
          adminNamespaces: [
            session.name,
            ...orgs.filter((org) => org.roleInOrg === "admin").map((org) => org.name),
          ],
        };
      } catch (error) {
        if (error instanceof HubApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });

/** Whether the viewer may commit to a repository directly (else they may only open a pull request). */
export function canWrite(viewer: Viewer | null | undefined, repoId: string): boolean {
  if (!viewer) return false;
  if (viewer.isAdmin) return true;
  const owner = repoId.split("/")[0]?.toLowerCase();
  return viewer.writableNamespaces.some((namespace) => namespace.toLowerCase() === owner);
}

/** Whether the viewer administers a repository (its owner, an admin of its organization, a site admin). */
export function canAdmin(viewer: Viewer | null | undefined, repoId: string): boolean {
  if (!viewer) return false;
  if (viewer.isAdmin) return true;
  const owner = repoId.split("/")[0]?.toLowerCase();
  return viewer.adminNamespaces.some((namespace) => namespace.toLowerCase() === owner);
}
