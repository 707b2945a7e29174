/** A cell's value as one line of text: strings as they are, other values as JSON (at most 500 characters). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
