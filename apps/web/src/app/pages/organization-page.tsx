import { useParams } from "react-router";
import { OrganizationView } from "../../features/account/organization-view.js";

/** `/organizations/{name}`: an organization's members and roles. */
export function OrganizationPage() {
  const name = useParams().org ?? "";
  return <OrganizationView key={name} name={name} />;
}
