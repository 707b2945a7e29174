import type { AdminSiteSettings, SignupPolicy } from "@modelhub/hub/api";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorText, FormMessage, SubmitButton, TextField } from "../account/form-parts.js";
import { adminSend, siteSettingsQuery } from "./admin-api.js";

const POLICY_LABELS: Record<SignupPolicy, string> = {
  open: "Open: anyone may create an account",
  invite: "Invite: an account needs an invite link",
  closed: "Closed: administrators create accounts",
};

/** The site's name, a notice shown above every page, and the sign-up policy (or the configuration's). */
export function SiteSettingsForm() {
  const settings = useQuery(siteSettingsQuery);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (settings.isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (settings.isError) return <FormMessage error={errorText(settings.error)} />;
  const current = settings.data;

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const policy = String(form.get("signupPolicy"));
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const next = await adminSend<AdminSiteSettings>(
        "PUT",
        "/api/admin/settings",
        {
          siteName: String(form.get("siteName")),
          notice: String(form.get("notice")),
          signupPolicy: policy === "configured" ? null : policy,
        },
        ["admin", "site", "auth-options"],
      );
      setSaved(`Saved. Sign-up is now ${next.effectiveSignupPolicy}.`);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={save} aria-label="Site settings" className="flex max-w-xl flex-col gap-4">
      <TextField label="Site name" name="siteName" defaultValue={current.siteName} required maxLength={60} />
      <TextField
        label="Notice"
        name="notice"
        defaultValue={current.notice}
        maxLength={500}
        hint="One line shown above every page (maintenance, terms of use). Leave empty for none."
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Sign-up</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name="signupPolicy"
            value="configured"
            defaultChecked={current.signupPolicy === null}
          />
          As configured (SIGNUP_POLICY={current.configuredSignupPolicy})
        </label>
        {(Object.keys(POLICY_LABELS) as SignupPolicy[]).map((policy) => (
          <label key={policy} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="signupPolicy"
              value={policy}
              defaultChecked={current.signupPolicy === policy}
            />
            {POLICY_LABELS[policy]}
          </label>
        ))}
      </fieldset>
      <FormMessage error={error} success={saved} />
      <SubmitButton disabled={busy}>{busy ? "Saving…" : "Save settings"}</SubmitButton>
    </form>
  );
}
