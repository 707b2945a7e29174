import { PIPELINE_TYPES } from "@modelhub/tasks";
import { useId, useMemo, useState } from "react";
import { LICENSES } from "../../lib/licenses.js";
import type { RepoRef } from "../../lib/repo-ref.js";
import { taskLabel } from "../../lib/task-labels.js";
import {
  CARD_FIELDS,
  type CardField,
  parseFieldText,
  readCardMetadata,
  setCardField,
} from "./card-source.js";

const SORTED_PIPELINES = [...PIPELINE_TYPES].sort((a, b) =>
  (taskLabel(a) ?? a).localeCompare(taskLabel(b) ?? b),
);

/**
 * The common fields of a card's front matter as a form over the README's text: each change rewrites only its
 * key in `text` (card-source.ts), so the rest of the metadata and the card's body stay as they are. The text
 * stays the one truth: an edit in the file's box shows here at once.
 */
export function CardFields({
  kind,
  text,
  onText,
}: {
  kind: RepoRef["type"];
  text: string;
  onText: (text: string) => void;
}) {
  const id = useId();
  const fields = CARD_FIELDS[kind];
  const metadata = useMemo(() => readCardMetadata(text, fields), [text, fields]);
  // What is being typed in a list field ("en, " has a trailing comma the parsed values drop) while it is
  // what the text says; an edit of the text itself shows the text's values again.
  const [drafts, setDrafts] = useState<Record<string, { typed: string; values: string[] }>>({});

  if (!metadata.ok) {
    return (
      <p role="status" className="rounded-md bg-warn-soft p-3 text-sm text-warn">
        {metadata.problem} The fields cannot be shown as a form until it is.
      </p>
    );
  }
  const shown = (field: CardField) => {
    const values = metadata.values[field.key] ?? [];
    const draft = drafts[field.key];
    return draft && draft.values.join("\0") === values.join("\0") ? draft.typed : values.join(", ");
  };
  const change = (field: CardField, typed: string) => {
    const values = parseFieldText(field, typed);
    setDrafts((current) => ({ ...current, [field.key]: { typed, values } }));
    onText(setCardField(text, field, values));
  };

  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4">
      <legend className="px-1 text-sm font-semibold">Card metadata</legend>
      <p className="text-sm text-muted">
        These fields are the README's front matter; changing one rewrites only its line.
        {metadata.otherKeys.length > 0 ? (
          <>
            {" "}
            Kept as they are: <span data-testid="kept-keys">{metadata.otherKeys.join(", ")}</span>.
          </>
        ) : null}
      </p>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {fields.map((field) => {
          const inputId = `${id}-${field.key}`;
          const hintId = `${inputId}-hint`;
          return (
            <div key={field.key} className="flex min-w-0 flex-col gap-1">
              <label htmlFor={inputId} className="text-sm font-medium">
                {field.label}
              </label>
              {field.key === "pipeline_tag" ? (
                <select
                  id={inputId}
                  aria-describedby={hintId}
                  value={shown(field)}
                  onChange={(event) => change(field, event.target.value)}
                  className="h-9 min-w-0 rounded-md border border-line bg-surface px-2 text-sm"
                >
                  <option value="">None</option>
                  {shown(field) && !SORTED_PIPELINES.includes(shown(field) as never) ? (
                    <option value={shown(field)}>{shown(field)}</option>
                  ) : null}
                  {SORTED_PIPELINES.map((task) => (
                    <option key={task} value={task}>
                      {taskLabel(task)}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  id={inputId}
                  aria-describedby={hintId}
                  value={shown(field)}
                  onChange={(event) => change(field, event.target.value)}
                  list={field.key === "license" ? `${id}-licenses` : undefined}
                  autoComplete="off"
                  spellCheck={false}
                  className="h-9 min-w-0 rounded-md border border-line bg-surface px-3 font-mono text-sm"
                />
              )}
              <span id={hintId} className="text-xs text-muted">
                {field.hint}
              </span>
            </div>
          );
        })}
      </div>
      <datalist id={`${id}-licenses`}>
        {LICENSES.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </datalist>
    </fieldset>
  );
}
