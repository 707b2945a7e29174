import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { PageTitle } from "../../components/ui/page-title.js";
import { HubApiError } from "../../lib/api/hub-fetch.js";
import { queryClient } from "../../lib/query-client.js";
import { OrgProviders } from "../org-providers/index.js";
import { type OrgRole, useSession } from "./account-api.js";
import {
  buttonClass,
  errorText,
  FormMessage,
  inputClass,
  SettingsSection,
  secondaryButtonClass,
} from "./form-parts.js";
import {
  createInvite,
  ORG_ROLES,
  organizationQuery,
  removeMember,
  setMemberRole,
  whoamiQuery,
} from "./organizations.js";
import { TokenReveal } from "./token-reveal.js";

/** The choices of an organization role select (a member's role, an invite's role). */
const ROLE_OPTIONS = ORG_ROLES.map((role) => (
  <option key={role} value={role}>
    {role}
  </option>
));

/** An organization: its members and their roles; its admins change roles, remove members and invite. */
export function OrganizationView({ name }: { name: string }) {
  const org = useQuery(organizationQuery(name));
  const { data: session } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [invite, setInvite] = useState<{ url: string; role: OrgRole } | null>(null);
  const ids = useId();

  if (org.isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (org.isError) {
    const missing = org.error instanceof HubApiError && org.error.status === 404;
    return (
      <section className="py-8">
        <PageTitle>{missing ? "Organization not found" : "Organization"}</PageTitle>
        <h1 className="text-xl font-semibold">{missing ? "Organization not found" : "Organization"}</h1>
        <FormMessage error={missing ? `There is no organization named “${name}”.` : errorText(org.error)} />
      </section>
    );
  }

  const me = session
    ? org.data.members.find((m) => m.name.toLowerCase() === session.name.toLowerCase())
    : undefined;
  const isAdmin = me?.role === "admin" || session?.isAdmin === true;
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: organizationQuery(name).queryKey }),
      queryClient.invalidateQueries({ queryKey: whoamiQuery.queryKey }),
    ]);
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await refresh();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const makeInvite = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const role = new FormData(event.currentTarget).get("role") as OrgRole;
    setError(null);
    try {
      const made = await createInvite(org.data.name, role);
      setInvite({ url: made.url, role: made.role });
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <PageTitle>{org.data.fullname}</PageTitle>
      <header className="flex items-center gap-3">
        <img src={org.data.avatarUrl} alt="" className="size-12 rounded-lg border border-line" />
        <div className="min-w-0">
          <h1 className="break-words text-xl font-semibold tracking-tight">{org.data.fullname}</h1>
          <p className="text-sm text-muted">
            {org.data.name} · {org.data.members.length} member{org.data.members.length === 1 ? "" : "s"}
            {me ? ` · your role: ${me.role}` : ""}
          </p>
          {isAdmin ? (
            <p className="text-sm">
              <Link
                to={`/organizations/${encodeURIComponent(org.data.name)}/audit-log`}
                className="underline"
              >
                Audit log
              </Link>
            </p>
          ) : null}
        </div>
      </header>
      <FormMessage error={error} />
      <SettingsSection title="Members">
        <ul className="flex flex-col divide-y divide-line rounded-md border border-line" aria-label="Members">
          {org.data.members.map((member) => (
            <li key={member.name} className="flex flex-wrap items-center gap-3 p-3">
              <img src={member.avatarUrl} alt="" className="size-8 rounded-full" />
              <div className="min-w-0 flex-1">
                <p className="break-words font-medium">{member.fullname}</p>
                <p className="text-xs text-muted">{member.name}</p>
              </div>
              {isAdmin ? (
                <>
                  <label htmlFor={`${ids}-${member.name}`} className="sr-only">
                    Role of {member.name}
                  </label>
                  <select
                    id={`${ids}-${member.name}`}
                    value={member.role}
                    onChange={(event) =>
                      act(() => setMemberRole(org.data.name, member.name, event.target.value as OrgRole))
                    }
                    className={`${inputClass} w-auto`}
                  >
                    {ROLE_OPTIONS}
                  </select>
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    onClick={() => act(() => removeMember(org.data.name, member.name))}
                    aria-label={`Remove ${member.name}`}
                  >
                    Remove
                  </button>
                </>
              ) : (
                <span className="rounded-full border border-line px-2 py-0.5 text-xs">{member.role}</span>
              )}
            </li>
          ))}
        </ul>
      </SettingsSection>
      {me || isAdmin ? <OrgProviders org={org.data.name} canManage={isAdmin} /> : null}
      {isAdmin ? (
        <SettingsSection title="Invite someone">
          <form onSubmit={makeInvite} className="flex flex-wrap items-end gap-3" aria-label="Invite someone">
            <div className="flex flex-col gap-1">
              <label htmlFor={`${ids}-invite-role`} className="text-sm font-medium">
                Role
              </label>
              <select
                id={`${ids}-invite-role`}
                name="role"
                defaultValue="read"
                className={`${inputClass} w-auto`}
              >
                {ROLE_OPTIONS}
              </select>
            </div>
            <button type="submit" className={buttonClass}>
              Create invite link
            </button>
          </form>
          {invite ? (
            <div className="flex flex-col gap-1">
              <TokenReveal token={invite.url} name={`invite as ${invite.role}`} label="Invite link" />
              <p className="text-xs text-muted">
                Single use, valid for 7 days. Whoever opens it signed in joins.
              </p>
            </div>
          ) : null}
        </SettingsSection>
      ) : null}
    </div>
  );
}
