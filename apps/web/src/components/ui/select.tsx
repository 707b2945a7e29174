import * as RadixSelect from "@radix-ui/react-select";
import type { ReactNode } from "react";
import { memo } from "react";

export interface SelectOption {
  /** Never empty: Radix reserves "" for "no selection"; callers use sentinel values such as "any". */
  value: string;
  label: string;
  /** Extra text after the label, e.g. a "staging" badge. */
  hint?: ReactNode;
}

interface SelectProps {
  label: string;
  value: string;
  options: readonly SelectOption[];
  onValueChange: (value: string) => void;
  /** Shows the label above the trigger; otherwise it is only the accessible name. */
  showLabel?: boolean;
  className?: string;
  testId?: string;
}

/** A labelled Radix select; the label is the trigger's accessible name. */
export const Select = memo(function Select({
  label,
  value,
  options,
  onValueChange,
  showLabel = true,
  className,
  testId,
}: SelectProps) {
  for (const option of options) {
    if (option.value === "") throw new Error(`Select "${label}" has an option with an empty value`);
  }
  const selected = options.find((option) => option.value === value);
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className ?? ""}`}>
      {showLabel && (
        <span aria-hidden="true" className="text-xs font-medium text-muted">
          {label}
        </span>
      )}
      <RadixSelect.Root value={value} onValueChange={onValueChange}>
        <RadixSelect.Trigger
          aria-label={label}
          data-testid={testId}
          className="inline-flex h-9 min-w-0 items-center justify-between gap-2 rounded-md border border-line bg-surface px-3 text-sm text-ink hover:border-accent data-[state=open]:border-accent"
        >
          <span className="truncate">
            <RadixSelect.Value>
              {selected ? (
                <span className="inline-flex items-center gap-1.5">
                  {selected.label}
                  {selected.hint}
                </span>
              ) : null}
            </RadixSelect.Value>
          </span>
          <RadixSelect.Icon aria-hidden="true" className="text-muted">
            ▾
          </RadixSelect.Icon>
        </RadixSelect.Trigger>
        <RadixSelect.Portal>
          <RadixSelect.Content
            position="popper"
            sideOffset={4}
            collisionPadding={8}
            className="z-50 max-h-(--radix-select-content-available-height) min-w-(--radix-select-trigger-width) max-w-[calc(100vw-1rem)] overflow-hidden rounded-md border border-line bg-surface text-ink shadow-lg"
          >
            <RadixSelect.Viewport className="p-1">
              {options.map((option) => (
                <RadixSelect.Item
                  key={option.value}
                  value={option.value}
                  className="flex cursor-pointer select-none items-center gap-1.5 rounded px-2 py-1.5 text-sm outline-none data-highlighted:bg-accent-soft data-highlighted:text-ink data-[state=checked]:font-semibold"
                >
                  <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                  {option.hint}
                </RadixSelect.Item>
              ))}
            </RadixSelect.Viewport>
          </RadixSelect.Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
    </div>
  );
});
