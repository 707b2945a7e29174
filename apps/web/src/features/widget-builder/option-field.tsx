import { WIDGET_OPTIONS, type WidgetOptions } from "@modelhub/widget";
import { useState } from "react";
import { Select } from "../../components/ui/select.js";
import { Slider } from "../../components/ui/slider.js";

type Name = keyof WidgetOptions;

const LABELS: Record<Name, string> = {
  theme: "Theme",
  title: "Title",
  maxProducts: "Maximum products",
  maxColumns: "Maximum columns",
  direction: "Direction",
  permanent: "Permanent selection",
  owned: "Owned by",
  debug: "Debug logging",
  noBorder: "No border",
  noShadow: "No shadow",
  noTitle: "No title",
  noCredits: "No credits",
  noPadding: "No padding",
  openSelf: "Open links in the same tab",
  devMode: "Development mode",
  hub: "Development hub URL",
  version: "Script version",
  container: "Container element id",
};

export function optionLabel(name: Name): string {
  return LABELS[name];
}

const inputClass =
  "h-9 w-full rounded-md border border-line bg-surface px-3 text-sm placeholder:text-muted/70 focus:border-accent";

interface OptionFieldProps<K extends Name> {
  name: K;
  value: WidgetOptions[K];
  onChange: (value: WidgetOptions[K]) => void;
}

/** One control per option, chosen by the option's kind in the widget's schema. */
export function OptionField<K extends Name>({ name, value, onChange }: OptionFieldProps<K>) {
  const spec = WIDGET_OPTIONS[name];
  const id = `widget-option-${name}`;
  const describedBy = `${id}-help`;
  const help = (
    <p id={describedBy} className="text-xs text-muted">
      {spec.description}
    </p>
  );
  const set = (next: unknown) => onChange(next as WidgetOptions[K]);

  switch (spec.kind) {
    case "flag":
      return (
        <div className="flex items-start gap-2">
          <input
            id={id}
            type="checkbox"
            checked={value as boolean}
            onChange={(event) => set(event.target.checked)}
            aria-describedby={describedBy}
            className="mt-0.5 size-4 accent-accent"
          />
          <div>
            <label htmlFor={id} className="text-sm font-medium">
              {LABELS[name]}
            </label>
            {help}
          </div>
        </div>
      );
    case "choice":
      return (
        <div className="flex flex-col gap-1">
          <Select
            label={LABELS[name]}
            value={value as string}
            options={spec.values.map((choice) => ({ value: choice, label: choice }))}
            onValueChange={set}
            testId={id}
          />
          {help}
        </div>
      );
    case "integer":
      return (
        <div className="flex flex-col gap-1.5">
          <div className="flex justify-between text-xs font-medium text-muted">
            <span aria-hidden="true">{LABELS[name]}</span>
            <output htmlFor={id}>{value as number}</output>
          </div>
          <Slider
            label={LABELS[name]}
            value={value as number}
            min={spec.min}
            max={spec.max}
            step={1}
            onValueChange={set}
            testId={id}
          />
          {help}
        </div>
      );
    default: {
      const text = textOf(value);
      return (
        <div className="flex flex-col gap-1">
          <label htmlFor={id} className="text-xs font-medium text-muted">
            {LABELS[name]}
          </label>
          <TextOption id={id} describedBy={describedBy} kind={spec.kind} text={text} onCommit={set} />
          {help}
        </div>
      );
    }
  }
}

/** What a text option's raw text means: a list of ids for `modelIds`, the trimmed text otherwise. */
function parseText(kind: string, raw: string): unknown {
  if (kind !== "modelIds") return raw.trim();
  return raw
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

const textOf = (value: unknown) => (Array.isArray(value) ? value.join(", ") : String(value));

/**
 * Text options apply as the reader types. The field keeps the reader's own text (a trailing comma, a
 * space, a URL the widget's parser rejects, shown by its warning); it is replaced only when the option
 * changes from elsewhere (a link, Back).
 */
function TextOption({
  id,
  describedBy,
  kind,
  text,
  onCommit,
}: {
  id: string;
  describedBy: string;
  kind: string;
  text: string;
  onCommit: (value: unknown) => void;
}) {
  const [draft, setDraft] = useState(text);
  const [seen, setSeen] = useState(text);
  if (text !== seen) {
    setSeen(text);
    // The option changed: from this field's own typing (keep the reader's text), or from elsewhere.
    if (textOf(parseText(kind, draft)) !== text) setDraft(text);
  }
  const placeholder =
    kind === "modelIds" ? "owner/name, owner/name" : kind === "url" ? "http://localhost:5173" : undefined;
  return (
    <input
      id={id}
      type={kind === "url" ? "url" : "text"}
      value={draft}
      placeholder={placeholder}
      aria-describedby={describedBy}
      onChange={(event) => {
        const raw = event.currentTarget.value;
        const value = parseText(kind, raw);
        setDraft(raw);
        onCommit(value);
      }}
      className={inputClass}
    />
  );
}
