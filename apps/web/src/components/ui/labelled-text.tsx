import { type ReactNode, useId } from "react";

/**
 * A labelled text box whose text the caller keeps: one line, or `rows` lines. `mono` sets ids, paths and
 * code in the monospace face.
 */
export function LabelledText({
  label,
  value,
  onValue,
  rows,
  mono = false,
  ...extra
}: {
  label: ReactNode;
  value: string;
  onValue: (text: string) => void;
  rows?: number;
  mono?: boolean;
  placeholder?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  autoComplete?: "off";
  spellCheck?: boolean;
}) {
  const id = useId();
  const box = { id, value, onChange: (event: { target: { value: string } }) => onValue(event.target.value) };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {rows ? (
        <textarea
          rows={rows}
          className={`rounded-md border border-line bg-surface px-3 py-2 ${mono ? "font-mono text-[13px]" : "text-sm"}`}
          {...box}
          {...extra}
        />
      ) : (
        <input
          className={`h-9 rounded-md border border-line bg-surface px-3 text-sm ${mono ? "font-mono" : ""}`}
          {...box}
          {...extra}
        />
      )}
    </div>
  );
}
