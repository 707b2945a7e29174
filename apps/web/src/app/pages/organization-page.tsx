import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { OrganizationView } from "../../features/account/organization-view.js";
import { organizationQuery } from "../../features/account/organizations.js";
import { OwnerRepos } from "../../features/repo-lists/index.js";

/** `/organizations/{name}`: an organization's members and roles, then its repositories. */
export function OrganizationPage() {
  const name = useParams().org ?? "";
  const org = useQuery(organizationQuery(name));
  return (
    <div className="flex flex-col gap-8">
      <OrganizationView key={name} name={name} />
      {org.data ? <OwnerRepos owner={org.data.name} /> : null}
    </div>
  );
}
