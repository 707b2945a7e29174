import { type FormEvent, type InputHTMLAttributes, type ReactNode, useId, useState } from "react";

export const inputClass =
  "h-9 w-full rounded-md border border-line bg-surface px-3 text-sm placeholder:text-muted/70 focus:border-accent";
export const buttonClass =
  "inline-flex h-9 items-center justify-center rounded-md bg-accent px-4 text-sm font-medium text-accent-ink hover:opacity-90 disabled:opacity-60";
export const secondaryButtonClass =
  "inline-flex h-8 items-center justify-center rounded-md border border-line px-3 text-sm font-medium hover:border-accent disabled:opacity-60";

/** A labelled input; `hint` is tied to it with aria-describedby. */
export function TextField({
  label,
  hint,
  ...input
}: { label: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input id={id} className={inputClass} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A form's main button, at the start of the line under its fields. */
export function SubmitButton({ disabled, children }: { disabled?: boolean; children: ReactNode }) {
  return (
    <button type="submit" className={`${buttonClass} self-start`} disabled={disabled}>
      {children}
    </button>
  );
}

/** A titled part of a settings or administration page: a section named by its heading. */
export function SettingsSection({
  title,
  className = "flex flex-col gap-3",
  children,
}: {
  title: string;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A new password's field: the hub takes 8 characters at the least, and password managers offer one. */
export function NewPasswordField({
  label = "Password",
  name = "password",
  ...input
}: { label?: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <TextField
      label={label}
      name={name}
      type="password"
      autoComplete="new-password"
      minLength={8}
      {...input}
    />
  );
}

/** A settings section that is one form, named by the section's title (or `label` when the form's differs). */
export function SettingsForm({
  title,
  label = title,
  onSubmit,
  children,
}: {
  title: string;
  label?: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <SettingsSection title={title} className="flex flex-col gap-4">
      <form onSubmit={onSubmit} className="flex max-w-md flex-col gap-4" aria-label={label}>
        {children}
      </form>
    </SettingsSection>
  );
}

/** A form's outcome, announced to screen readers: an error (alert) or a confirmation (status). */
export function FormMessage({ error, success }: { error?: string | null; success?: string | null }) {
  if (error)
    return (
      <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
        {error}
      </p>
    );
  if (success)
    return (
      <p role="status" className="rounded-md border border-line bg-accent-soft px-3 py-2 text-sm">
        {success}
      </p>
    );
  return null;
}

/**
 * The outcome a <FormMessage> shows, and `attempt`, which clears it, runs an action and shows the action's
 * confirmation or its error. `submitAndReset` makes a form's submit handler of an action on its fields:
 * the form is emptied once the action succeeds, and kept as typed when it fails.
 */
export function useFormOutcome() {
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const attempt = async (action: () => Promise<string>) => {
    setMessage({});
    try {
      setMessage({ success: await action() });
    } catch (failure) {
      setMessage({ error: errorText(failure) });
    }
  };
  const submitAndReset =
    (action: (fields: FormData) => Promise<string>) => (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = event.currentTarget;
      const fields = new FormData(form);
      return attempt(async () => {
        const done = await action(fields);
        form.reset();
        return done;
      });
    };
  return { message, attempt, submitAndReset };
}

/** A form field's text, or undefined when it was left empty (or is absent). */
export function optionalField(fields: FormData, name: string): string | undefined {
  return String(fields.get(name) ?? "") || undefined;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
