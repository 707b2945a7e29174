import type { AdminUser } from "@modelhub/hub/api";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  buttonClass,
  errorText,
  FormMessage,
  NewPasswordField,
  optionalField,
  SettingsSection,
  SubmitButton,
  secondaryButtonClass,
  TextField,
  useFormOutcome,
} from "../account/form-parts.js";
import { TokenReveal } from "../account/token-reveal.js";
import { adminCreate, adminSend, adminUsersQuery } from "./admin-api.js";

/** The flags an admin flips on another user (never on themself): the button's label and the confirmation. */
const USER_TOGGLES: Array<{
  field: "disabled" | "isAdmin";
  label: (user: AdminUser) => string;
  done: (user: AdminUser) => string;
}> = [
  {
    field: "disabled",
    label: (user) => (user.disabled ? "Enable" : "Disable"),
    done: (user) => `${user.name} is ${user.disabled ? "enabled" : "disabled"}.`,
  },
  {
    field: "isAdmin",
    label: (user) => (user.isAdmin ? "Remove admin" : "Make admin"),
    done: (user) => `${user.name} is ${user.isAdmin ? "no longer" : "now"} an administrator.`,
  },
];

/** Every user, with disable / make admin / reset password; a form to create one; sign-up invite links. */
export function UsersAdmin({ self }: { self: string }) {
  const users = useQuery(adminUsersQuery);
  const { message, attempt } = useFormOutcome();
  const [resetting, setResetting] = useState<string | null>(null);

  const change = (user: AdminUser, patch: Record<string, unknown>, done: string) =>
    attempt(async () => {
      await adminSend("PATCH", `/api/admin/users/${encodeURIComponent(user.name)}`, patch, ["admin"]);
      return done;
    });

  const resetPassword = async (event: FormEvent<HTMLFormElement>, user: AdminUser) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password"));
    await change(user, { password }, `${user.name}'s password was reset; their sessions were signed out.`);
    setResetting(null);
  };

  return (
    <div className="flex flex-col gap-8">
      <SettingsSection title="Users">
        <FormMessage error={message.error} success={message.success} />
        {users.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
        {users.isError ? <FormMessage error={errorText(users.error)} /> : null}
        {users.data ? (
          <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
            {users.data.map((user) => (
              <li key={user.id} className="flex flex-col gap-2 p-3">
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                  <span className="font-medium">{user.name}</span>
                  <span className="text-sm text-muted">{user.email ?? "no email"}</span>
                  {user.isAdmin ? <span className="text-xs font-medium text-accent">Admin</span> : null}
                  {user.disabled ? <span className="text-xs font-medium text-danger">Disabled</span> : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  {USER_TOGGLES.map((toggle) => (
                    <button
                      key={toggle.field}
                      type="button"
                      className={secondaryButtonClass}
                      disabled={user.name === self}
                      onClick={() => change(user, { [toggle.field]: !user[toggle.field] }, toggle.done(user))}
                    >
                      {toggle.label(user)}
                      <span className="sr-only"> {user.name}</span>
                    </button>
                  ))}
                  <button
                    type="button"
                    className={secondaryButtonClass}
                    aria-expanded={resetting === user.name}
                    onClick={() => setResetting(resetting === user.name ? null : user.name)}
                  >
                    Reset password<span className="sr-only"> of {user.name}</span>
                  </button>
                </div>
                {resetting === user.name ? (
                  <form
                    onSubmit={(event) => resetPassword(event, user)}
                    aria-label={`New password for ${user.name}`}
                    className="flex flex-wrap items-end gap-2"
                  >
                    <NewPasswordField label={`New password for ${user.name}`} required autoFocus />
                    <button type="submit" className={buttonClass}>
                      Set password
                    </button>
                  </form>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
      </SettingsSection>
      <CreateUserForm />
      <SignupInvite />
    </div>
  );
}

function CreateUserForm() {
  const { message, submitAndReset } = useFormOutcome();
  const create = submitAndReset((fields) =>
    adminCreate("/api/admin/users", {
      name: String(fields.get("name")),
      email: optionalField(fields, "email"),
      password: optionalField(fields, "password"),
      isAdmin: fields.get("isAdmin") === "on",
    }),
  );
  return (
    <SettingsSection title="Create a user" className="flex max-w-xl flex-col gap-3">
      <form onSubmit={create} aria-label="Create a user" className="flex flex-col gap-3">
        <TextField label="User name" name="name" required autoComplete="off" />
        <TextField label="Email" name="email" type="email" autoComplete="off" />
        <NewPasswordField hint="Optional: without one, the user signs in through single sign-on or after a reset." />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="isAdmin" /> Site administrator
        </label>
        <FormMessage error={message.error} success={message.success} />
        <SubmitButton>Create user</SubmitButton>
      </form>
    </SettingsSection>
  );
}

function SignupInvite() {
  const [invite, setInvite] = useState<{ url: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const make = async () => {
    setError(null);
    try {
      setInvite(await adminSend("POST", "/api/admin/invites", {}, []));
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  return (
    <SettingsSection title="Sign-up invites" className="flex max-w-xl flex-col gap-3">
      <p className="text-sm text-muted">A link that creates one account, for a week (invite-only sign-up).</p>
      <button type="button" className={`${secondaryButtonClass} self-start`} onClick={make}>
        Make an invite link
      </button>
      <FormMessage error={error} />
      {invite ? (
        <TokenReveal
          token={invite.url}
          name={`until ${new Date(invite.expiresAt).toLocaleDateString()}`}
          label="Invite link"
        />
      ) : null}
    </SettingsSection>
  );
}
