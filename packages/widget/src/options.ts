/**
 * The widget's options: one schema, one parser. The embedded script, the hub's routes and the web app's
 * widget builder all read options through this module, so a value means the same thing everywhere.
 * DOM-free and dependency-free: it is bundled into the script.
 */

export const THEMES = ["auto", "light", "dark"] as const;
export type WidgetTheme = (typeof THEMES)[number];

export const DIRECTIONS = ["horizontal", "vertical"] as const;
export type WidgetDirection = (typeof DIRECTIONS)[number];

/** Where `devMode` sends data requests when no `hub` is given: the web app's Vite dev server. */
export const DEV_HUB_URL = "http://localhost:5173";

/** Most products one widget shows (and most ids `permanent` may list). */
export const MAX_PRODUCTS_LIMIT = 24;
export const MAX_COLUMNS_LIMIT = 6;
export const MAX_TITLE_LENGTH = 100;

/** `owner/name`, the hub's model id; each part starts with a letter or digit. */
export const MODEL_ID_PATTERN = /^[A-Za-z0-9][\w.-]{0,95}\/[A-Za-z0-9][\w.-]{0,95}$/;
export const OWNER_PATTERN = /^[A-Za-z0-9][\w.-]{0,95}$/;
const VERSION_PATTERN = /^[1-9]\d{0,2}$/;

export interface WidgetOptions {
  theme: WidgetTheme;
  title: string;
  maxProducts: number;
  maxColumns: number;
  direction: WidgetDirection;
  /** A fixed selection of model ids, shown in this order instead of the live ranking. */
  permanent: string[];
  /** Only this owner's models (the `owner` in `owner/name`); "" = every owner. */
  owned: string;
  debug: boolean;
  noBorder: boolean;
  noShadow: boolean;
  noTitle: boolean;
  noCredits: boolean;
  noPadding: boolean;
  openSelf: boolean;
  devMode: boolean;
  /** With `devMode`: the development hub to talk to; "" = {@link DEV_HUB_URL}. */
  hub: string;
  /** The script version the embed pins ("" = the latest); the hub serves that version or 404. */
  version: string;
  /** The id of an element to render into, instead of where the script tag stands. */
  container: string;
}

type Spec<T, Kind extends string, Extra = object> = {
  kind: Kind;
  default: T;
  description: string;
} & Extra;

export type WidgetOptionSpec =
  | Spec<string, "choice", { values: readonly string[] }>
  | Spec<string, "text", { maxLength: number }>
  | Spec<number, "integer", { min: number; max: number }>
  | Spec<boolean, "flag">
  | Spec<string[], "modelIds", { maxItems: number }>
  | Spec<string, "owner">
  | Spec<string, "url">
  | Spec<string, "version">
  | Spec<string, "elementId">;

type SpecOfKind<K extends WidgetOptionSpec["kind"]> = Extract<WidgetOptionSpec, { kind: K }>;
type SpecFor<T> = T extends boolean
  ? SpecOfKind<"flag">
  : T extends number
    ? SpecOfKind<"integer">
    : T extends readonly string[]
      ? SpecOfKind<"modelIds">
      : Exclude<WidgetOptionSpec, { kind: "flag" | "integer" | "modelIds" }>;

/** Every option: its kind, default and meaning, in the order embed code lists them. */
export const WIDGET_OPTIONS: { readonly [K in keyof WidgetOptions]: SpecFor<WidgetOptions[K]> } = {
  theme: {
    kind: "choice",
    values: THEMES,
    default: "auto",
    description: "light, dark, or auto (follows the visitor's colour scheme, live)",
  },
  title: { kind: "text", maxLength: MAX_TITLE_LENGTH, default: "Top products", description: "Heading text" },
  maxProducts: {
    kind: "integer",
    min: 1,
    max: MAX_PRODUCTS_LIMIT,
    default: 6,
    description: "How many products to show at most",
  },
  maxColumns: {
    kind: "integer",
    min: 1,
    max: MAX_COLUMNS_LIMIT,
    default: 3,
    description: "Most columns in the horizontal grid (fewer on narrow screens)",
  },
  direction: {
    kind: "choice",
    values: DIRECTIONS,
    default: "horizontal",
    description: "horizontal: a grid of cards; vertical: one product per row",
  },
  permanent: {
    kind: "modelIds",
    maxItems: MAX_PRODUCTS_LIMIT,
    default: [],
    description: "Comma-separated model ids shown in that order instead of the live ranking",
  },
  owned: { kind: "owner", default: "", description: "Only models of this owner, in ranking order" },
  debug: { kind: "flag", default: false, description: "Log what the widget does to the console" },
  noBorder: {
    kind: "flag",
    default: false,
    description: "Drops the frame around the widget, for a page that frames it itself",
  },
  noShadow: {
    kind: "flag",
    default: false,
    description: "Drops the shadow under the widget, for flat designs",
  },
  noTitle: {
    kind: "flag",
    default: false,
    description: "Hides the heading above the products, when the page titles them itself",
  },
  noCredits: { kind: "flag", default: false, description: "Hides the “Powered by Modelhub” link below" },
  noPadding: {
    kind: "flag",
    default: false,
    description: "Drops the space inside the frame, so the cards reach its edges",
  },
  openSelf: {
    kind: "flag",
    default: false,
    description: "A model's link replaces the page instead of opening a new tab",
  },
  devMode: {
    kind: "flag",
    default: false,
    description: `Talk to a development hub: the \`hub\` option, or ${DEV_HUB_URL}`,
  },
  hub: { kind: "url", default: "", description: "Development hub URL (only used with devMode)" },
  version: {
    kind: "version",
    default: "",
    description: "Pin the script version (e.g. 1); the hub answers 404 for versions it does not have",
  },
  container: { kind: "elementId", default: "", description: "Render into the element with this id" },
};

export const WIDGET_OPTION_NAMES = Object.keys(WIDGET_OPTIONS) as (keyof WidgetOptions)[];

export function defaultWidgetOptions(): WidgetOptions {
  const options = {} as Record<string, unknown>;
  for (const name of WIDGET_OPTION_NAMES) {
    const value = WIDGET_OPTIONS[name].default;
    options[name] = Array.isArray(value) ? [...value] : value;
  }
  return options as unknown as WidgetOptions;
}

export interface ParsedWidgetOptions {
  options: WidgetOptions;
  /** One line per ignored or corrected value; the script logs them when `debug` is on. */
  warnings: string[];
}

type Outcome<T> = { value: T; warning?: string };

const TRUE_WORDS = ["", "1", "true", "yes", "on"];
const FALSE_WORDS = ["0", "false", "no", "off"];

function parseValue(name: string, spec: WidgetOptionSpec, raw: string): Outcome<unknown> {
  const text = raw.trim();
  const rejected = (why: string): Outcome<unknown> => ({
    value: spec.default,
    warning: `${name}: ${why}; using the default ${JSON.stringify(spec.default)}`,
  });
  switch (spec.kind) {
    case "choice": {
      const lowered = text.toLowerCase();
      return spec.values.includes(lowered)
        ? { value: lowered }
        : rejected(`${JSON.stringify(raw)} is not one of ${spec.values.join(", ")}`);
    }
    case "text": {
      if (text === "") return rejected("empty");
      if (text.length <= spec.maxLength) return { value: text };
      return {
        value: text.slice(0, spec.maxLength),
        warning: `${name}: longer than ${spec.maxLength} characters; cut`,
      };
    }
    case "integer": {
      const value = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
      return value >= spec.min && value <= spec.max
        ? { value }
        : rejected(`${JSON.stringify(raw)} is not a whole number from ${spec.min} to ${spec.max}`);
    }
    case "flag": {
      const lowered = text.toLowerCase();
      if (TRUE_WORDS.includes(lowered)) return { value: true };
      if (FALSE_WORDS.includes(lowered)) return { value: false };
      return rejected(`${JSON.stringify(raw)} is not a flag value (empty, true/false, 1/0, yes/no, on/off)`);
    }
    case "modelIds":
      return parseModelIds(name, text, spec.maxItems);
    case "owner":
      return OWNER_PATTERN.test(text)
        ? { value: text }
        : rejected(`${JSON.stringify(raw)} is not an owner name`);
    case "url":
      return parseHubUrl(text) ?? rejected(`${JSON.stringify(raw)} is not an http(s) URL`);
    case "version":
      return VERSION_PATTERN.test(text)
        ? { value: text }
        : rejected(`${JSON.stringify(raw)} is not a version`);
    case "elementId":
      return text !== "" && text.length <= 200 && !/\s/.test(text)
        ? { value: text }
        : rejected(`${JSON.stringify(raw)} is not an element id`);
  }
}

function parseModelIds(name: string, text: string, maxItems: number): Outcome<string[]> {
  const problems: string[] = [];
  const ids: string[] = [];
  for (const part of text.split(",")) {
    const id = part.trim();
    if (id === "") continue;
    if (!MODEL_ID_PATTERN.test(id)) problems.push(`${JSON.stringify(id)} is not a model id (owner/name)`);
    else if (ids.includes(id)) problems.push(`${JSON.stringify(id)} is listed twice`);
    else if (ids.length >= maxItems)
      problems.push(`more than ${maxItems} ids; ${JSON.stringify(id)} dropped`);
    else ids.push(id);
  }
  return problems.length === 0
    ? { value: ids }
    : { value: ids, warning: `${name}: ${problems.join("; ")}; kept ${JSON.stringify(ids)}` };
}

/** An http(s) URL without query, fragment or trailing slash, or undefined. */
function parseHubUrl(text: string): Outcome<string> | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  return { value: `${url.origin}${url.pathname}`.replace(/\/+$/, "") };
}

/**
 * Reads options from query parameters (a script URL's search params, a query string or a plain record).
 * Never throws: unknown names and invalid values are reported in `warnings` and fall back to defaults.
 * A name given twice keeps its last value, as URLSearchParams would.
 */
export function parseWidgetOptions(
  params: URLSearchParams | string | Readonly<Record<string, string>>,
): ParsedWidgetOptions {
  const entries: [string, string][] =
    typeof params === "string" || params instanceof URLSearchParams
      ? [...new URLSearchParams(params).entries()]
      : Object.entries(params);
  const options = defaultWidgetOptions() as unknown as Record<string, unknown>;
  const warnings: string[] = [];
  for (const [name, raw] of entries) {
    if (!Object.hasOwn(WIDGET_OPTIONS, name)) {
      warnings.push(`${name}: unknown option; ignored`);
      continue;
    }
    const outcome = parseValue(name, WIDGET_OPTIONS[name as keyof WidgetOptions], raw);
    options[name] = outcome.value;
    if (outcome.warning) warnings.push(outcome.warning);
  }
  return { options: options as unknown as WidgetOptions, warnings };
}

/** Is `value` the option's default (so embed code can leave it out)? */
export function isDefaultOption<K extends keyof WidgetOptions>(name: K, value: WidgetOptions[K]): boolean {
  const fallback = WIDGET_OPTIONS[name].default;
  if (Array.isArray(fallback) && Array.isArray(value)) return value.length === fallback.length;
  return value === fallback;
}
