import type { AdminOrg } from "@modelhub/hub/api";
import { useQuery } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { Link } from "react-router";
import { buttonClass, errorText, FormMessage, TextField, useFormOutcome } from "../account/form-parts.js";
import { adminOrgsQuery, adminSend } from "./admin-api.js";

/** Every organization (members are managed on its page, where site admins pass its checks). */
export function OrgsAdmin() {
  const orgs = useQuery(adminOrgsQuery);
  const { message, attempt } = useFormOutcome();
  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    return attempt(async () => {
      const org = await adminSend<AdminOrg>(
        "POST",
        "/api/admin/orgs",
        {
          name: String(form.get("name")),
          fullname: String(form.get("fullname") ?? "") || undefined,
          owner: String(form.get("owner")),
        },
        ["admin"],
      );
      formElement.reset();
      return `Created ${org.name}.`;
    });
  };
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="orgs-heading" className="flex flex-col gap-3">
        <h2 id="orgs-heading" className="text-lg font-semibold">
          Organizations
        </h2>
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
      </section>
      <section aria-labelledby="create-org-heading" className="flex max-w-xl flex-col gap-3">
        <h2 id="create-org-heading" className="text-lg font-semibold">
          Create an organization
        </h2>
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
          <button type="submit" className={`${buttonClass} self-start`}>
            Create organization
          </button>
        </form>
      </section>
    </div>
  );
}
