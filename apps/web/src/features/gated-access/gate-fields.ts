/**
 * The request form a gated repository's card asks for, read from its metadata as the public hub reads it:
 * `extra_gated_fields` maps each label to a type (`text`, `checkbox`, `date_picker`, `country`, `ip_location`)
 * or to `{type: select, options: [...]}`; `extra_gated_prompt`, `extra_gated_heading`,
 * `extra_gated_description` and `extra_gated_button_content` word the form.
 */

export type GateField =
  | { kind: "text" | "date" | "country"; label: string }
  | { kind: "checkbox"; label: string }
  | { kind: "select"; label: string; options: Array<{ label: string; value: string }> };

export interface GateForm {
  heading?: string;
  prompt?: string;
  description?: string;
  button: string;
  fields: GateField[];
}

const SIMPLE_KINDS: Record<string, "text" | "date" | "country" | "checkbox"> = {
  text: "text",
  date_picker: "date",
  country: "country",
  checkbox: "checkbox",
};

/** The most fields a form shows: the hub keeps 50 answers of a request. */
const MAX_FIELDS = 50;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

function selectOptions(options: unknown): Array<{ label: string; value: string }> {
  if (!Array.isArray(options)) return [];
  return options.flatMap((option) => {
    if (typeof option === "string" || typeof option === "number") {
      return [{ label: String(option), value: String(option) }];
    }
    if (option && typeof option === "object") {
      const { label, value } = option as { label?: unknown; value?: unknown };
      const shown = text(label) ?? text(value);
      return shown ? [{ label: shown, value: text(value) ?? shown }] : [];
    }
    return [];
  });
}

/** One field, or undefined for what the visitor does not fill in (`ip_location`) or cannot be read. */
function gateField(label: string, spec: unknown): GateField | undefined {
  const type = typeof spec === "string" ? spec : text((spec as { type?: unknown } | null)?.type);
  if (type === "select") {
    const options = selectOptions((spec as { options?: unknown }).options);
    return options.length ? { kind: "select", label, options } : { kind: "text", label };
  }
  const kind = type ? SIMPLE_KINDS[type] : undefined;
  if (kind) return { kind, label };
  // `ip_location` is filled in by the public hub from the request, not by the visitor: it is left out here.
  return type === "ip_location" ? undefined : { kind: "text", label };
}

/** The form a card's metadata asks for; with no `extra_gated_fields`, a form with no fields. */
export function gateForm(cardData: Record<string, unknown> | undefined): GateForm {
  const card = cardData ?? {};
  const declared = card.extra_gated_fields;
  const fields =
    declared && typeof declared === "object" && !Array.isArray(declared)
      ? Object.entries(declared)
          .filter(([label]) => label.trim())
          .map(([label, spec]) => gateField(label.trim(), spec))
          .filter((field): field is GateField => field !== undefined)
          .slice(0, MAX_FIELDS)
      : [];
  return {
    heading: text(card.extra_gated_heading),
    prompt: text(card.extra_gated_prompt),
    description: text(card.extra_gated_description),
    button: text(card.extra_gated_button_content) ?? "Ask for access",
    fields,
  };
}

/** The answers the hub stores, from a submitted form: every field by its label; a ticked box as "Yes". */
export function gateAnswers(form: GateForm, data: FormData): Record<string, string> {
  return Object.fromEntries(
    form.fields.map((field) => {
      const value = data.get(field.label);
      if (field.kind === "checkbox") return [field.label, value ? "Yes" : "No"];
      return [field.label, typeof value === "string" ? value.trim() : ""];
    }),
  );
}
