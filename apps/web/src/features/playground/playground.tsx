import { type InferenceProvider, isInferenceProvider } from "@modelhub/inference";
import { useSearchParams } from "react-router";
import { Select } from "../../components/ui/select.js";
import type { ModelInfo, ProviderMapping } from "../../lib/api/models.js";
import { providerLabel } from "../../lib/providers.js";
import { useSession } from "../account/account-api.js";
import { CreateTokenForMe } from "../account/create-token-for-me.js";
import { ownProviderLabel, useOwnProviders } from "../model-page/use-own-providers.js";
import { tokenProblem, useAccessToken } from "./access-token.js";
import { ChatPlayground } from "./chat-playground.js";
import { MEDIA_TASKS, MediaPlayground, type MediaTask } from "./media-playground.js";
import { TaskPlayground } from "./task-playground.js";

type UsableMapping = ProviderMapping & { provider: InferenceProvider };

/** Try the model here: calls go from this browser through the hub's router to the provider. */
export function Playground({ model, hubUrl }: { model: ModelInfo; hubUrl: string }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [accessToken, setAccessToken] = useAccessToken();
  const { data: session } = useSession();
  const problem = tokenProblem(accessToken);
  const mappings = model.inferenceProviderMapping.filter((mapping): mapping is UsableMapping =>
    isInferenceProvider(mapping.provider),
  );
  // The own providers the viewer may use: chat only, through the router's /v1.
  const own = useOwnProviders(model.id);
  const wanted = searchParams.get("provider");
  const ownChosen = own.find((entry) => entry.provider === wanted);
  const mapping =
    mappings.find((entry) => entry.provider === wanted) ??
    (ownChosen ? undefined : (mappings.find((entry) => entry.status === "live") ?? mappings[0]));

  if (!mapping && !ownChosen && own.length === 0) {
    return <p className="text-muted">No inference provider serves this model.</p>;
  }
  const chosen = mapping?.provider ?? ownChosen?.provider ?? own[0]!.provider;

  const task = mapping?.task ?? "conversational";
  const common = { provider: chosen, hubUrl, accessToken, csrfToken: session?.csrfToken };
  return (
    <section
      aria-labelledby="playground-heading"
      className="flex flex-col gap-4 rounded-lg border border-line bg-surface p-4"
    >
      <h2 id="playground-heading" className="text-lg font-semibold">
        Try {model.id}
      </h2>
      <div className="flex flex-wrap items-end gap-4">
        <Select
          label="Provider"
          value={chosen}
          options={[
            ...mappings.map((entry) => ({
              value: entry.provider,
              label: providerLabel(entry.provider),
              hint:
                entry.status === "staging" ? (
                  <span className="rounded bg-warn-soft px-1.5 text-[11px] font-medium text-warn">
                    staging
                  </span>
                ) : undefined,
            })),
            ...own.map((entry) => ({ value: entry.provider, label: ownProviderLabel(entry) })),
          ]}
          onValueChange={(provider) => setSearchParams({ provider }, { replace: true })}
          className="w-full sm:w-56"
          testId="playground-provider"
        />
        {session ? null : <TokenField value={accessToken} onChange={setAccessToken} invalid={!!problem} />}
      </div>
      {session ? (
        <div className="flex flex-col gap-2 text-sm" data-testid="playground-session">
          <p className="text-muted">
            Signed in as <strong className="text-fg">{session.name}</strong>: your calls go with your session,
            and their usage is recorded for you. Tokens are for code.
          </p>
          <details>
            <summary className="cursor-pointer text-xs text-muted">Use an access token instead</summary>
            <div className="mt-2 flex flex-col gap-2">
              <TokenField value={accessToken} onChange={setAccessToken} invalid={!!problem} optional />
            </div>
          </details>
        </div>
      ) : (
        <CreateTokenForMe modelId={model.id} where="playground" onToken={setAccessToken} />
      )}
      {problem ? (
        <p role="alert" className="rounded-md bg-warn-soft p-3 text-sm text-warn" data-testid="token-problem">
          {problem}
        </p>
      ) : null}
      {!mapping ? (
        <ChatPlayground key={chosen} modelId={model.id} own {...common} />
      ) : task === "conversational" ? (
        <ChatPlayground key={chosen} modelId={model.id} {...common} provider={mapping.provider} />
      ) : MEDIA_TASKS.includes(task) ? (
        <MediaPlayground
          key={chosen}
          task={task as MediaTask}
          modelId={model.id}
          {...common}
          provider={mapping.provider}
        />
      ) : (
        // Not keyed by provider: the reader's request and chosen file stay when the provider changes.
        <TaskPlayground key={task} model={model} task={task} {...common} provider={mapping.provider} />
      )}
    </section>
  );
}

function TokenField({
  value,
  onChange,
  invalid,
  optional,
}: {
  value: string;
  onChange: (next: string) => void;
  invalid: boolean;
  /** Signed in: the session does without one. */
  optional?: boolean;
}) {
  return (
    <label className="flex w-full min-w-0 flex-col gap-1 sm:w-auto sm:flex-1">
      <span className="text-xs font-medium text-muted">Hub access token{optional ? " (optional)" : ""}</span>
      <input
        type="password"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder="hf_…"
        autoComplete="off"
        spellCheck={false}
        aria-describedby="token-help"
        aria-invalid={invalid ? true : undefined}
        className="h-9 w-full min-w-0 max-w-sm rounded-md border border-line bg-canvas px-3 font-mono text-sm focus:border-accent"
      />
      <span id="token-help" className="text-xs text-muted">
        {optional
          ? "Calls then go with this token instead of your session. It is sent only with your calls and kept in this page until you reload it."
          : "This hub’s router asks for one (or sign in); it is sent only with your calls and kept in this page until you reload it."}
      </span>
    </label>
  );
}
