/** The client's error message for a failed run, announced to screen readers. */
export function PlaygroundError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-md bg-danger-soft p-3 text-sm text-danger"
      data-testid="playground-error"
    >
      {message}
    </p>
  );
}
