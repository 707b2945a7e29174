import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import {
  errorText,
  FormMessage,
  optionalField,
  SettingsSection,
  SubmitButton,
  TextField,
  useFormOutcome,
} from "../account/form-parts.js";
import { adminCreate, adminOrgsQuery } from "./admin-api.js";

/** Every organization (members are managed on its page, where site admins pass its checks). */
export function OrgsAdmin() {
  const orgs = useQuery(adminOrgsQuery);
  const { message, submitAndReset } = useFormOutcome();
  const create = submitAndReset((fields) =>
    adminCreate("/api/admin/orgs", {
      name: String(fields.get("name")),
      fullname: optionalField(fields, "fullname"),
      owner: String(fields.get("owner")),
    }),
  );
  return (
    <div className="flex flex-col gap-8">
      <SettingsSection title="Organizations">
        {orgs.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
        {orgs.isError ? <FormMessage error={errorText(orgs.error)} /> : null}
        {orgs.data?.length === 0 ? <p className="text-sm text-muted">No organizations yet.</p> : null}
        {orgs.data?.length ? (
          <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
            {orgs.data.map((org) => (
              <li key={org.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 p-3">
                <Link to={`/organizations/${encodeURIComponent(org.name)}`} className="font-medium underline">
                  {org.name}
                </Link>
                <span className="text-sm text-muted">{org.fullname}</span>
                <span className="text-sm text-muted">
                  {org.members} {org.members === 1 ? "member" : "members"}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </SettingsSection>
      <SettingsSection title="Create an organization" className="flex max-w-xl flex-col gap-3">
        <form onSubmit={create} aria-label="Create an organization" className="flex flex-col gap-3">
          <TextField label="Organization name" name="name" required autoComplete="off" />
          <TextField label="Full name" name="fullname" autoComplete="off" />
          <TextField
            label="Owner (user name)"
            name="owner"
            required
            autoComplete="off"
            hint="Its first admin."
          />
          <FormMessage error={message.error} success={message.success} />
          <SubmitButton>Create organization</SubmitButton>
        </form>
      </SettingsSection>
    </div>
  );
}
