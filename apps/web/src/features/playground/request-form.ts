/**
 * A form for a task's JSON request, read off the request's own shape: a string input is a text box, an
 * object of strings a box per field, a list of strings one entry per line. Whatever has no form (tables,
 * numbers, nested objects) stays editable as JSON.
 */
export interface FormField {
  /** Where the value lives: ["inputs"], ["inputs", "question"], ["parameters", "candidate_labels"]. */
  path: [string] | [string, string];
  label: string;
  kind: "text" | "lines" | "list";
}

const LABELS: Record<string, string> = {
  inputs: "Text",
  question: "Question",
  context: "Context",
  source_sentence: "Sentence",
  sentences: "Sentences to compare (one per line)",
  candidate_labels: "Candidate labels (comma-separated)",
  text: "Text",
  text_target: "Target",
};

const humanize = (key: string) => LABELS[key] ?? key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((entry) => typeof entry === "string");

export function formFields(request: Record<string, unknown>): FormField[] {
  const fields: FormField[] = [];
  const { inputs, parameters } = request;
  if (typeof inputs === "string") fields.push({ path: ["inputs"], label: "Text", kind: "text" });
  else if (isStringList(inputs))
    fields.push({ path: ["inputs"], label: "Texts (one per line)", kind: "lines" });
  else if (inputs && typeof inputs === "object" && !Array.isArray(inputs)) {
    for (const [key, value] of Object.entries(inputs)) {
      if (typeof value === "string")
        fields.push({ path: ["inputs", key], label: humanize(key), kind: "text" });
      else if (isStringList(value))
        fields.push({ path: ["inputs", key], label: humanize(key), kind: "lines" });
    }
  }
  if (parameters && typeof parameters === "object" && !Array.isArray(parameters)) {
    for (const [key, value] of Object.entries(parameters)) {
      if (isStringList(value)) fields.push({ path: ["parameters", key], label: humanize(key), kind: "list" });
      else if (typeof value === "string") {
        fields.push({ path: ["parameters", key], label: humanize(key), kind: "text" });
      }
    }
  }
  return fields;
}

export function readField(request: Record<string, unknown>, field: FormField): string {
  const [head, key] = field.path;
  const container = request[head];
  const value = key === undefined ? container : (container as Record<string, unknown> | undefined)?.[key];
  if (field.kind === "text") return typeof value === "string" ? value : "";
  const list = isStringList(value) ? value : [];
  return field.kind === "lines" ? list.join("\n") : list.join(", ");
}

export function writeField(
  request: Record<string, unknown>,
  field: FormField,
  text: string,
): Record<string, unknown> {
  const value =
    field.kind === "text"
      ? text
      : field.kind === "lines"
        ? text.split("\n").filter((line) => line.trim() !== "")
        : text
            .split(",")
            .map((entry) => entry.trim())
            .filter((entry) => entry !== "");
  const [head, key] = field.path;
  if (key === undefined) return { ...request, [head]: value };
  return { ...request, [head]: { ...(request[head] as Record<string, unknown>), [key]: value } };
}
