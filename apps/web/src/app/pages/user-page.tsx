import { useQuery } from "@tanstack/react-query";
import { Link, Navigate, useParams } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { organizationQuery } from "../../features/account/organizations.js";
import { OwnerRepos } from "../../features/repo-lists/index.js";
import { HubApiError } from "../../lib/api/hub-fetch.js";
import { userOverviewQuery } from "../../lib/api/repos.js";
import { NotFoundPage } from "./not-found-page.js";

/** `/{name}`: a user's profile and repositories; an organization's name goes to its own page. */
export function UserPage() {
  const name = useParams().owner ?? "";
  const user = useQuery(userOverviewQuery(name));
  const notUser = user.error instanceof HubApiError && user.error.status === 404;
  const org = useQuery({ ...organizationQuery(name), enabled: notUser, retry: false });
  if (user.isPending || (notUser && org.isPending)) {
    return (
      <p className="py-12 text-center text-muted" aria-live="polite">
        Loading {name}…
      </p>
    );
  }
  if (notUser && org.data) return <Navigate to={`/organizations/${encodeURIComponent(name)}`} replace />;
  if (!user.data) {
    if (notUser) return <NotFoundPage />;
    return (
      <p role="alert" className="py-12 text-center text-danger">
        {user.error?.message}
      </p>
    );
  }
  const profile = user.data;
  return (
    <div className="flex flex-col gap-6">
      <PageTitle>{`${profile.user}${profile.fullname && profile.fullname !== profile.user ? ` (${profile.fullname})` : ""}`}</PageTitle>
      <header className="flex flex-wrap items-center gap-4 border-b border-line pb-4">
        <img src={profile.avatarUrl} alt="" width={64} height={64} className="size-16 rounded-full" />
        <div className="min-w-0">
          <h1 className="break-words text-2xl font-semibold tracking-tight">
            {profile.fullname || profile.user}
          </h1>
          <p className="text-muted">{profile.user}</p>
        </div>
        {profile.orgs.length ? (
          <div className="min-w-0">
            <h2 className="text-xs font-medium text-muted">Organizations</h2>
            <ul className="mt-1 flex flex-wrap gap-2">
              {profile.orgs.map((org) => (
                <li key={org.name}>
                  <Link
                    to={`/organizations/${encodeURIComponent(org.name)}`}
                    className="flex items-center gap-1.5 rounded-full border border-line py-0.5 pl-0.5 pr-2 text-sm hover:border-accent"
                  >
                    <img src={org.avatarUrl} alt="" width={20} height={20} className="size-5 rounded-full" />
                    {org.fullname || org.name}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </header>
      <OwnerRepos owner={profile.user} />
    </div>
  );
}
