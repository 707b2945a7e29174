import { type InputHTMLAttributes, type ReactNode, useId, useState } from "react";

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
 * confirmation or its error.
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
  return { message, attempt };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
