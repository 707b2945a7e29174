/**
 * What the compiled templates (templates.generated.ts, made by scripts/compile-template.ts) call: the few
 * Jinja2 semantics the snippet templates use (printing, truth, attribute reads, `for`, `indent`), as
 * @modelhub/jinja renders them. templates.test.ts renders every template both ways and compares.
 */

/** The variables a template reads: TemplateContext, as a plain record. */
export type TemplateVariables = Readonly<Record<string, unknown>>;

/** A compiled template: its variables in, its text out. */
export type CompiledSnippetTemplate = (variables: TemplateVariables) => string;

/** Jinja2's `{{ value }}`: Python's str(), undefined as "". */
export function show(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  // Floats, lists and objects print as Python reprs, which no snippet template prints: a template that
  // starts to must be checked against the engine first (templates.test.ts would show the difference).
  throw new TypeError(`a snippet template printed a ${typeof value}, which compiled templates do not print`);
}

/** Python truth of the values templates test (strings, booleans, numbers, lists, records, undefined). */
export function truthy(value: unknown): boolean {
  if (typeof value === "string") return value !== "";
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  for (const key in value as object) if (Object.hasOwn(value as object, key)) return true;
  return false;
}

/**
 * `value.name`: a record's field or a class's getter (LazyCodeValue's texts), undefined when absent.
 * Reading a field of an undefined variable is an error, as in Jinja2 (a template must test an optional
 * variable first).
 */
export function attr(value: unknown, name: string, expression: string): unknown {
  if (value === undefined) {
    throw new TypeError(`${expression}: the template read a field of an undefined value`);
  }
  if (value === null || typeof value !== "object") return undefined;
  if (Object.hasOwn(value, name)) return (value as Record<string, unknown>)[name];
  const proto: unknown = Object.getPrototypeOf(value);
  // Not what every object inherits (toString...): only a class's own members.
  if (proto === Object.prototype || proto === null || !(name in (proto as object))) return undefined;
  return (value as Record<string, unknown>)[name];
}

/**
 * The value whose field a template reads, as a record: reading a field of an undefined variable is an
 * error, as in Jinja2. (Compiled templates read the field itself as a property: see compile-template.ts.)
 */
export function defined(value: unknown, expression: string): Readonly<Record<string, unknown>> {
  if (value === undefined) {
    throw new TypeError(`${expression}: the template read a field of an undefined value`);
  }
  return value as Readonly<Record<string, unknown>>;
}

/** What `{% for %}` walks: a list (undefined walks nothing, as in Jinja2). */
export function items(value: unknown, expression: string): readonly unknown[] {
  if (Array.isArray(value)) return value;
  if (value === undefined) return [];
  throw new TypeError(`${expression}: a snippet template can only loop over a list`);
}

/** Python's str.splitlines() boundaries, which Jinja2's indent splits on. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
const OTHER_LINE_BREAK = /[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Jinja2's `indent(width)` (first=False, blank=False): every line but the first, blank lines left alone. */
export function indent(value: unknown, width: number): string {
  const text = `${show(value)}\n`;
  // Code literals almost always break lines with \n alone: a plain split, no regular expression.
  const lines = OTHER_LINE_BREAK.test(text) ? text.split(LINE_BREAK) : text.split("\n");
  // splitlines() drops the empty piece after a final line break.
  lines.pop();
  const pad = " ".repeat(width);
  let out = lines[0] ?? "";
  for (let i = 1; i < lines.length; i++) out += lines[i] ? `\n${pad}${lines[i]}` : "\n";
  return out;
}
