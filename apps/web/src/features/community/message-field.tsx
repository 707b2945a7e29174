import { useId } from "react";

/** A labelled box for a discussion's opening message or a comment, its text kept by the caller. */
export function MessageField({
  label,
  rows,
  value,
  onChange,
}: {
  label: string;
  rows: number;
  value: string;
  onChange: (text: string) => void;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="rounded-md border border-line bg-surface px-3 py-2 text-sm"
      />
    </>
  );
}
