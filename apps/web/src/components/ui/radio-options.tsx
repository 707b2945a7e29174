import { type ReactNode, useId } from "react";

/** One choice of a radio group: its value, its label, and (for an icon-only label) a name to read out. */
export interface RadioChoice<Value extends string> {
  value: Value;
  label: ReactNode;
  title?: string;
  ariaLabel?: string;
}

/** How a group's choices look: each label's classes and each radio's; `required` for a form's choice. */
export interface RadioLook {
  label?: string;
  input?: string;
  required?: boolean;
}

/** A radio group whose choice lives in state: one labelled radio per choice, the chosen one checked. */
export function RadioOptions<Value extends string>({
  options,
  choice,
  onChoose,
  look = {},
}: {
  options: ReadonlyArray<RadioChoice<Value>>;
  choice: Value;
  onChoose: (value: Value) => void;
  look?: RadioLook;
}) {
  const name = useId();
  return options.map((option) => (
    <label key={option.value} className={look.label} title={option.title}>
      <input
        type="radio"
        name={name}
        value={option.value}
        checked={choice === option.value}
        onChange={() => onChoose(option.value)}
        className={look.input}
        required={look.required}
        aria-label={option.ariaLabel}
      />
      {option.label}
    </label>
  ));
}
