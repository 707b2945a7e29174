import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { queryClient } from "../../lib/query-client.js";
import { accountQuery, accountSend, type Profile } from "./account-api.js";
import {
  errorText,
  FormMessage,
  NewPasswordField,
  SettingsForm,
  SettingsSection,
  SubmitButton,
  TextField,
} from "./form-parts.js";

export const profileQuery = accountQuery<Profile>(["profile"], "/api/settings/profile");

/** Full name and email, and the password (which ends every session: the user signs in again). */
export function ProfileSettings() {
  const profile = useQuery(profileQuery);
  const navigate = useNavigate();
  const [saved, setSaved] = useState<{ error?: string; success?: string }>({});
  const [password, setPassword] = useState<{ error?: string }>({});

  if (profile.isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (profile.isError) return <FormMessage error={errorText(profile.error)} />;

  const saveProfile = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      const updated = await accountSend<Profile>("PATCH", "/api/settings/profile", {
        fullname: String(form.get("fullname")),
        email: String(form.get("email")) || null,
      });
      queryClient.setQueryData(profileQuery.queryKey, updated);
      setSaved({ success: "Profile saved." });
    } catch (failure) {
      setSaved({ error: errorText(failure) });
    }
  };

  const changePassword = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    try {
      await accountSend("PUT", "/api/settings/password", {
        currentPassword: String(form.get("currentPassword")),
        newPassword: String(form.get("newPassword")),
      });
      queryClient.clear();
      navigate("/login?next=/settings/profile", { replace: true });
    } catch (failure) {
      setPassword({ error: errorText(failure) });
    }
  };

  const { name, fullname, email, avatarUrl } = profile.data;
  return (
    <div className="flex flex-col gap-8">
      <SettingsSection title="Profile" className="flex flex-col gap-4">
        <div className="flex items-center gap-3">
          <img src={avatarUrl} alt="" className="size-14 rounded-full border border-line" />
          <p className="text-sm">
            <span className="font-semibold">{name}</span>
            <span className="block text-muted">Your user name names your models: {name}/model-name.</span>
          </p>
        </div>
        <form onSubmit={saveProfile} className="flex max-w-md flex-col gap-4" aria-label="Profile">
          <TextField label="Full name" name="fullname" defaultValue={fullname} autoComplete="name" />
          <TextField
            label="Email"
            name="email"
            type="email"
            defaultValue={email ?? ""}
            autoComplete="email"
          />
          <FormMessage error={saved.error} success={saved.success} />
          <SubmitButton>Save profile</SubmitButton>
        </form>
      </SettingsSection>
      <SettingsForm title="Password" label="Change password" onSubmit={changePassword}>
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
        />
        <NewPasswordField
          label="New password"
          name="newPassword"
          required
          hint="At least 8 characters. Changing it signs you out everywhere, this browser too."
        />
        <FormMessage error={password.error} />
        <SubmitButton>Change password</SubmitButton>
      </SettingsForm>
    </div>
  );
}
