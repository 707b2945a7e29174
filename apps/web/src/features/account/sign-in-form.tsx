import type { SignupPolicy } from "@modelhub/hub/api";
import { useQuery } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { usePendingAction } from "../../lib/use-pending-action.js";
import { accountQuery, accountSend, safeNext, signIn } from "./account-api.js";
import { buttonClass, errorText, FormMessage, NewPasswordField, TextField } from "./form-parts.js";

export const authOptionsQuery = accountQuery<{ signupPolicy: SignupPolicy; sso: boolean }>(
  ["auth-options"],
  "/api/auth/options",
);

/** Sign in with a user name (or email) and password; back to `?next=` afterwards. */
export function SignInForm() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const options = useQuery(authOptionsQuery);
  const { busy, error, run } = usePendingAction(
    params.get("sso") === "failed"
      ? "Single sign-on did not complete. Try again, or sign in with your password."
      : null,
  );
  const next = safeNext(params.get("next"));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    await run(async () => {
      await signIn(String(form.get("name")), String(form.get("password")));
      navigate(next, { replace: true });
    });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label="Sign in">
      <TextField label="User name or email" name="name" autoComplete="username" required autoFocus />
      <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
      <FormMessage error={error} />
      <button type="submit" className={buttonClass} disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
      {options.data?.sso ? (
        <a
          href={`/api/auth/oidc/start?next=${encodeURIComponent(next)}`}
          className="inline-flex h-9 items-center justify-center rounded-md border border-line px-4 text-sm font-medium hover:border-accent"
        >
          Sign in with single sign-on
        </a>
      ) : null}
      {options.data && options.data.signupPolicy !== "closed" ? (
        <p className="text-sm text-muted">
          No account yet?{" "}
          <Link
            to={`/join${next !== "/models" ? `?next=${encodeURIComponent(next)}` : ""}`}
            className="text-accent underline"
          >
            Sign up
          </Link>
        </p>
      ) : null}
    </form>
  );
}

/** Sign up as the hub's policy allows: open, with an invite link, or not at all (admins create users). */
export function SignUpForm() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const options = useQuery(authOptionsQuery);
  const { busy, error, run } = usePendingAction();
  const invite = params.get("invite") ?? "";
  const next = safeNext(params.get("next"));

  if (options.isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (options.isError) return <FormMessage error={errorText(options.error)} />;
  const policy = options.data.signupPolicy;
  if (policy === "closed")
    return (
      <p className="text-sm">
        Sign-up is closed on this hub: an administrator creates accounts. Already have one?{" "}
        <Link to="/login" className="text-accent underline">
          Sign in
        </Link>
      </p>
    );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name"));
    const password = String(form.get("password"));
    await run(async () => {
      await accountSend("POST", "/api/auth/signup", {
        name,
        password,
        fullname: String(form.get("fullname") ?? "") || undefined,
        email: String(form.get("email") ?? "") || undefined,
        ...(policy === "invite" ? { invite: String(form.get("invite")) } : {}),
      });
      await signIn(name, password);
      navigate(next, { replace: true });
    });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label="Sign up">
      {policy === "invite" ? (
        <TextField
          label="Invite code"
          name="invite"
          defaultValue={invite}
          required
          hint="Sign-up on this hub takes an invite link from an administrator."
        />
      ) : null}
      <TextField
        label="User name"
        name="name"
        autoComplete="username"
        required
        hint="Letters, digits, “-”, “_” and “.”; it names your models (you/model)."
      />
      <TextField label="Full name" name="fullname" autoComplete="name" />
      <TextField label="Email" name="email" type="email" autoComplete="email" />
      <NewPasswordField required hint="At least 8 characters." />
      <FormMessage error={error} />
      <button type="submit" className={buttonClass} disabled={busy}>
        {busy ? "Creating your account…" : "Create account"}
      </button>
      {options.data.sso && (policy === "open" || invite) ? (
        // The invite goes along: the hub creates the account on the way back from the provider.
        <a
          href={`/api/auth/oidc/start?next=${encodeURIComponent(next)}${policy === "invite" ? `&invite=${encodeURIComponent(invite)}` : ""}`}
          className="inline-flex h-9 items-center justify-center rounded-md border border-line px-4 text-sm font-medium hover:border-accent"
        >
          Sign up with single sign-on
        </a>
      ) : null}
      <p className="text-sm text-muted">
        Already have an account?{" "}
        <Link to="/login" className="text-accent underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}
