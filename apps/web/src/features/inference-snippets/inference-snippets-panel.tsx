import { isInferenceProvider } from "@modelhub/inference";
import {
  getInferenceSnippets,
  getRouterProviderSnippets,
  type InferenceSnippet,
  type SnippetOptions,
} from "@modelhub/snippets";
import { isConversational } from "@modelhub/tasks";
import { useCallback, useLayoutEffect, useMemo, useState } from "react";
import { CodeBlock, codeLanguage } from "../../components/ui/code-block.js";
import { Select, type SelectOption } from "../../components/ui/select.js";
import { Tabs } from "../../components/ui/tabs.js";
import type { ModelInfo, ProviderMapping } from "../../lib/api/models.js";
import { providerLabel } from "../../lib/providers.js";
import { useUrlSearchState } from "../../lib/use-url-search-state.js";
import { CreateTokenForMe } from "../account/create-token-for-me.js";
import { ownProviderLabel, useOwnProviders } from "../model-page/use-own-providers.js";
import { AccessTokenField, type TokenMode } from "./access-token-field.js";
import {
  LANGUAGES,
  type Language,
  type PanelState,
  type ParameterName,
  pickAvailable,
  readPanelState,
  writePanelState,
} from "./panel-state.js";
import { ParameterSliders } from "./parameter-sliders.js";

const LANGUAGE_LABELS: Record<Language, string> = { python: "Python", js: "JavaScript", sh: "cURL" };

/** Performance marks: the perf script reads how long a change takes to reach the screen. */
export const CHANGE_MARK = "snippet-panel:change";
export const UPDATE_MEASURE = "snippet-panel:update";

const stagingBadge = (
  <span className="rounded bg-warn-soft px-1.5 text-[11px] font-medium text-warn">staging</span>
);

interface Generated {
  snippets: InferenceSnippet[];
  error?: string;
}

// Going back to a provider or option set seen before costs a lookup, not a generation.
const generatedCache = new Map<string, Generated>();
const GENERATED_CACHE_SIZE = 48;

function defaultProvider(mappings: ProviderMapping[]): ProviderMapping | undefined {
  return mappings.find((mapping) => mapping.status === "live") ?? mappings[0];
}

interface PanelProps {
  model: ModelInfo;
  /** The hub in use: snippets point their clients at its API and router. */
  hubUrl: string;
}

/** Ready-to-paste code for calling the model through a provider, generated in the browser. */
export function InferenceSnippetsPanel({ model, hubUrl }: PanelProps) {
  const [state, setState] = useUrlSearchState(readPanelState, writePanelState);
  const [tokenMode, setTokenMode] = useState<TokenMode>("env");
  const [token, setToken] = useState("");
  const chat = isConversational(model);

  // The hosted providers, then the own ones the viewer may use (called through the router's /v1 only).
  const own = useOwnProviders(model.id);
  const ownLabels = useMemo(
    () => new Map(own.map((entry) => [entry.provider, ownProviderLabel(entry)])),
    [own],
  );
  const mappings = useMemo<ProviderMapping[]>(
    () => [
      ...model.inferenceProviderMapping,
      ...own.map((entry) => ({
        provider: entry.provider,
        providerId: entry.providerId,
        task: entry.task,
        status: "live" as const,
      })),
    ],
    [model.inferenceProviderMapping, own],
  );
  const mapping = mappings.find((entry) => entry.provider === state.provider) ?? defaultProvider(mappings);

  const inlineToken = tokenMode === "inline" && token.trim() !== "";
  const { temperature, max_tokens, top_p } = state.parameters;
  const generated = useMemo(() => {
    const viaRouter = mapping !== undefined && ownLabels.has(mapping.provider);
    if (!mapping || (!viaRouter && !isInferenceProvider(mapping.provider)))
      return { snippets: [] as InferenceSnippet[] };
    const options: SnippetOptions = {
      streaming: chat && state.streaming,
      ...(chat && temperature !== undefined ? { temperature } : {}),
      ...(chat && max_tokens !== undefined ? { max_tokens } : {}),
      ...(chat && top_p !== undefined ? { top_p } : {}),
      hubUrl,
      routerUrl: `${hubUrl}/router`,
      inlineToken,
    };
    // Snippets that read the token from the environment are cached; an inlined token never is.
    const key = inlineToken
      ? undefined
      : JSON.stringify([model.id, mapping.provider, mapping.providerId, options]);
    const cached = key === undefined ? undefined : generatedCache.get(key);
    if (cached) return cached;
    let result: Generated;
    try {
      const accessToken = inlineToken ? token.trim() : "";
      result = {
        snippets: viaRouter
          ? getRouterProviderSnippets(model, accessToken, mapping.provider, options)
          : isInferenceProvider(mapping.provider)
            ? getInferenceSnippets(model, accessToken, mapping.provider, mapping.providerId, options)
            : [],
      };
    } catch (error) {
      result = { snippets: [], error: error instanceof Error ? error.message : String(error) };
    }
    if (key !== undefined) {
      if (generatedCache.size >= GENERATED_CACHE_SIZE)
        generatedCache.delete(generatedCache.keys().next().value as string);
      generatedCache.set(key, result);
    }
    return result;
  }, [
    model,
    mapping,
    ownLabels,
    chat,
    state.streaming,
    temperature,
    max_tokens,
    top_p,
    hubUrl,
    inlineToken,
    token,
  ]);

  const languages = LANGUAGES.filter((language) =>
    generated.snippets.some((snippet) => snippet.language === language),
  );
  const language = pickAvailable(state.language, languages) ?? state.language;
  const clientList = generated.snippets
    .filter((snippet) => snippet.language === language)
    .map((snippet) => snippet.client)
    .join(",");
  const clients = useMemo(() => (clientList ? clientList.split(",") : []), [clientList]);
  const client = pickAvailable(state.client, clients);
  const snippet = generated.snippets.find((entry) => entry.language === language && entry.client === client);

  const update = useCallback(
    (change: Partial<PanelState>) => {
      performance.mark(CHANGE_MARK);
      setState((current) => ({ ...current, ...change }));
    },
    [setState],
  );

  // Stable props, so the controls that did not change skip their re-render.
  const providerOptions = useMemo<SelectOption[]>(
    () =>
      mappings.map((entry) => ({
        value: entry.provider,
        label: ownLabels.get(entry.provider) ?? providerLabel(entry.provider),
        hint: entry.status === "staging" ? stagingBadge : undefined,
      })),
    [mappings, ownLabels],
  );
  const clientOptions = useMemo<SelectOption[]>(
    () => clients.map((name) => ({ value: name, label: name })),
    [clients],
  );
  const languageKey = languages.join(",");
  const languageTabs = useMemo(
    () =>
      (languageKey ? (languageKey.split(",") as Language[]) : []).map((value) => ({
        value,
        label: LANGUAGE_LABELS[value],
      })),
    [languageKey],
  );
  const chooseProvider = useCallback((provider: string) => update({ provider }), [update]);
  const chooseLanguage = useCallback(
    (value: string) => update({ language: value as Language, client: undefined }),
    [update],
  );
  const chooseClient = useCallback(
    (value: string) => update({ language, client: value }),
    [update, language],
  );
  const parameters = state.parameters;
  const changeParameter = useCallback(
    (name: ParameterName, value: number | undefined) =>
      update({ parameters: { ...parameters, [name]: value } }),
    [update, parameters],
  );

  // Time from a change to its commit on screen (render + DOM update), for the perf script.
  const renderKey = `${mapping?.provider}|${language}|${client}|${state.streaming}|${temperature}|${max_tokens}|${top_p}`;
  useLayoutEffect(() => {
    if (renderKey && performance.getEntriesByName(CHANGE_MARK, "mark").length > 0) {
      performance.measure(UPDATE_MEASURE, CHANGE_MARK);
      performance.clearMarks(CHANGE_MARK);
    }
  }, [renderKey]);

  if (!mapping) {
    return <p className="text-muted">No inference provider serves this model.</p>;
  }

  return (
    <section
      aria-labelledby="snippets-heading"
      className="flex flex-col gap-4 rounded-lg border border-line bg-surface p-4"
    >
      <h2 id="snippets-heading" className="text-lg font-semibold">
        Call {model.id} through an inference provider
      </h2>
      <div className="flex flex-wrap items-end gap-4">
        <Select
          label="Provider"
          value={mapping.provider}
          options={providerOptions}
          onValueChange={chooseProvider}
          className="w-56"
          testId="provider-select"
        />
        {chat ? (
          <label className="flex h-9 items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={state.streaming}
              onChange={(event) => update({ streaming: event.target.checked })}
              className="size-4 accent-accent"
            />
            Stream the reply
          </label>
        ) : null}
      </div>
      {mapping.status === "staging" ? (
        <p role="status" className="rounded-md bg-warn-soft p-2 text-sm text-warn">
          {providerLabel(mapping.provider)} serves this model in staging: for testing only.
        </p>
      ) : null}
      {chat ? <ParameterSliders values={parameters} onChange={changeParameter} /> : null}
      <AccessTokenField mode={tokenMode} token={token} onModeChange={setTokenMode} onTokenChange={setToken} />
      <CreateTokenForMe
        modelId={model.id}
        where="snippet"
        onToken={(made) => {
          // Written into the code, so that what the reader copies runs as it is.
          setToken(made);
          setTokenMode("inline");
        }}
      />
      {generated.error ? (
        <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger">
          {generated.error}
        </p>
      ) : null}
      {languages.length === 0 && !generated.error ? (
        <p className="text-muted">No snippet exists for this task and provider.</p>
      ) : null}
      {languages.length > 0 ? (
        <Tabs label="Language" value={language} tabs={languageTabs} onValueChange={chooseLanguage}>
          <div className="flex flex-col gap-3">
            {clientOptions.length > 0 && client ? (
              <Select
                label="Client"
                value={client}
                options={clientOptions}
                onValueChange={chooseClient}
                className="w-56"
                testId="client-select"
              />
            ) : null}
            {snippet?.install ? (
              <CodeBlock
                code={snippet.install}
                label={`Install ${snippet.client}`}
                language="sh"
                testId="install-line"
              />
            ) : null}
            {snippet ? (
              <CodeBlock
                language={codeLanguage(language)}
                code={snippet.content}
                label={`${LANGUAGE_LABELS[language]} ${snippet.client} snippet`}
                testId="inference-snippet"
              />
            ) : null}
          </div>
        </Tabs>
      ) : null}
    </section>
  );
}
