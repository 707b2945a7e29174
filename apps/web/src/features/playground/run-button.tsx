/** The submit button of a playground form, which turns into Stop while a call runs. */
export function RunButton({
  running,
  onStop,
  label,
}: {
  running: boolean;
  onStop: () => void;
  label: string;
}) {
  return running ? (
    <button
      type="button"
      onClick={onStop}
      className="h-10 rounded-md border border-danger px-4 text-sm font-medium text-danger"
    >
      Stop
    </button>
  ) : (
    <button type="submit" className="h-10 rounded-md bg-accent px-4 text-sm font-medium text-accent-ink">
      {label}
    </button>
  );
}
