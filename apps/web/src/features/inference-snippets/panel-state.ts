/**
 * The snippet panel's state lives in the URL (`/{id}/inference?provider=&language=&client=&streaming=
 * &temperature=&max_tokens=&top_p=`) so a link reproduces the snippet. The access token never does.
 */
export const LANGUAGES = ["python", "js", "sh"] as const;
export type Language = (typeof LANGUAGES)[number];

export const PARAMETERS = {
  temperature: { label: "Temperature", min: 0, max: 2, step: 0.05, initial: 0.7 },
  max_tokens: { label: "Max tokens", min: 1, max: 8192, step: 1, initial: 500 },
  top_p: { label: "Top-p", min: 0, max: 1, step: 0.05, initial: 0.9 },
} as const;
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
