import { CHAT_DEFAULT_MAX_TOKENS } from "@modelhub/tasks";

/**
 * The snippet panel's state lives in the URL (`/{id}/inference?provider=&language=&client=&streaming=
 * &temperature=&max_tokens=&top_p=`) so a link reproduces the snippet. The access token never does.
 */
export const LANGUAGES = ["python", "js", "sh"] as const;
export type Language = (typeof LANGUAGES)[number];

interface ParameterSpec {
  label: string;
  min: number;
  max: number;
  step: number;
  /** Where the slider starts when the reader sets the parameter. */
  initial: number;
  /** What the code sends while the reader has not set it (absent: the code leaves it out). */
  codeDefault?: number;
}

export const PARAMETERS = {
  temperature: { label: "Temperature", min: 0, max: 2, step: 0.05, initial: 0.7 },
  // The chat snippets always send max_tokens (CHAT_DEFAULT_MAX_TOKENS when unset), so the panel says so.
  max_tokens: {
    label: "Max tokens",
    min: 1,
    max: 8192,
    step: 1,
    initial: CHAT_DEFAULT_MAX_TOKENS,
    codeDefault: CHAT_DEFAULT_MAX_TOKENS,
  },
  top_p: { label: "Top-p", min: 0, max: 1, step: 0.05, initial: 0.9 },
} as const satisfies Record<string, ParameterSpec>;

/** The value a parameter shows: the reader's, else what the code sends by default, else "unset". */
export function parameterDisplay(name: ParameterName, value: number | undefined): string {
  if (value !== undefined) return String(value);
  const spec: ParameterSpec = PARAMETERS[name];
  return spec.codeDefault === undefined ? "unset" : `${spec.codeDefault} (default)`;
}
export type ParameterName = keyof typeof PARAMETERS;
export const PARAMETER_NAMES = Object.keys(PARAMETERS) as ParameterName[];

export interface PanelState {
  provider?: string;
  language: Language;
  client?: string;
  streaming: boolean;
  /** Only parameters the reader has set; an unset one does not appear in the code. */
  parameters: Partial<Record<ParameterName, number>>;
}

function isLanguage(value: string | null): value is Language {
  return value !== null && (LANGUAGES as readonly string[]).includes(value);
}

function readParameter(params: URLSearchParams, name: ParameterName): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw.trim() === "") return undefined;
  const value = Number(raw);
  const { min, max } = PARAMETERS[name];
  return Number.isFinite(value) && value >= min && value <= max ? value : undefined;
}

export function readPanelState(params: URLSearchParams): PanelState {
  const language = params.get("language");
  const parameters: PanelState["parameters"] = {};
  for (const name of PARAMETER_NAMES) {
    const value = readParameter(params, name);
    if (value !== undefined) parameters[name] = value;
  }
  return {
    provider: params.get("provider") || undefined,
    language: isLanguage(language) ? language : "python",
    client: params.get("client") || undefined,
    streaming: params.get("streaming") === "true",
    parameters,
  };
}

export function writePanelState(state: PanelState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.provider) params.set("provider", state.provider);
  params.set("language", state.language);
  if (state.client) params.set("client", state.client);
  if (state.streaming) params.set("streaming", "true");
  for (const name of PARAMETER_NAMES) {
    const value = state.parameters[name];
    if (value !== undefined) params.set(name, String(value));
  }
  return params;
}

/** Picks the value the URL asks for when it is available, else the first available one. */
export function pickAvailable<T extends string>(
  wanted: string | undefined,
  available: readonly T[],
): T | undefined {
  return available.find((value) => value === wanted) ?? available[0];
}
