import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { queryClient } from "../../lib/query-client.js";
import {
  errorText,
  FormMessage,
  SettingsForm,
  SettingsSection,
  SubmitButton,
  secondaryButtonClass,
  TextField,
} from "./form-parts.js";
import { createOrganization, removeMember, whoamiQuery } from "./organizations.js";

/** The organizations the user belongs to (with their role, and leaving), and creating one. */
export function OrganizationsSettings({ user }: { user: string }) {
  const whoami = useQuery(whoamiQuery);
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      const org = await createOrganization(String(form.get("name")), String(form.get("fullname") ?? ""));
      await queryClient.invalidateQueries({ queryKey: whoamiQuery.queryKey });
      navigate(`/organizations/${encodeURIComponent(org.name)}`);
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  const leave = async (org: string) => {
    setListError(null);
    try {
      await removeMember(org, user);
      await queryClient.invalidateQueries({ queryKey: whoamiQuery.queryKey });
    } catch (failure) {
      setListError(errorText(failure));
    }
  };

  const orgs = whoami.data?.orgs ?? [];
  return (
    <div className="flex flex-col gap-8">
      <SettingsSection title="Your organizations">
        <FormMessage error={listError ?? (whoami.isError ? errorText(whoami.error) : null)} />
        {whoami.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
        {whoami.data && orgs.length === 0 ? (
          <p className="text-sm text-muted">You are not a member of any organization yet.</p>
        ) : null}
        <ul
          className="flex flex-col divide-y divide-line rounded-md border border-line"
          aria-label="Organizations"
        >
          {orgs.map((org) => (
            <li key={org.name} className="flex flex-wrap items-center gap-3 p-3">
              <img src={org.avatarUrl} alt="" className="size-8 rounded-md" />
              <div className="min-w-0 flex-1">
                <Link
                  to={`/organizations/${encodeURIComponent(org.name)}`}
                  className="font-medium text-accent underline"
                >
                  {org.fullname}
                </Link>
                <p className="text-xs text-muted">
                  {org.name} · your role: {org.roleInOrg}
                </p>
              </div>
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => leave(org.name)}
                aria-label={`Leave ${org.name}`}
              >
                Leave
              </button>
            </li>
          ))}
        </ul>
      </SettingsSection>
      <SettingsForm title="New organization" onSubmit={create}>
        <TextField
          label="Organization name"
          name="name"
          required
          hint="It names the organization’s models (name/model); you become its admin."
        />
        <TextField label="Full name" name="fullname" />
        <FormMessage error={error} />
        <SubmitButton>Create organization</SubmitButton>
      </SettingsForm>
    </div>
  );
}
