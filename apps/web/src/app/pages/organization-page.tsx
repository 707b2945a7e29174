import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { type Organization, useSession } from "../../features/account/account-api.js";
import { OrganizationView } from "../../features/account/organization-view.js";
import { organizationQuery } from "../../features/account/organizations.js";
import { OwnerRepos } from "../../features/repo-lists/index.js";
import { StorageUsage } from "../../features/storage/index.js";

/** The organization's storage, for its admins and site administrators (the API lets members read it too). */
function OrganizationStorage({ org }: { org: Organization }) {
  const { data: session } = useSession();
  const me = session
    ? org.members.find((member) => member.name.toLowerCase() === session.name.toLowerCase())
    : undefined;
  if (me?.role !== "admin" && session?.isAdmin !== true) return null;
  return <StorageUsage owner={org.name} />;
}

/** `/organizations/{name}`: an organization's members and roles, its storage for its admins, then its repositories. */
export function OrganizationPage() {
  const name = useParams().org ?? "";
  const org = useQuery(organizationQuery(name));
  return (
    <div className="flex flex-col gap-8">
      <OrganizationView key={name} name={name} />
      {org.data ? <OrganizationStorage org={org.data} /> : null}
      {org.data ? <OwnerRepos owner={org.data.name} /> : null}
    </div>
  );
}
