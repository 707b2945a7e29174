import type { InferenceProvider } from "@modelhub/inference";
import { useEffect, useRef, useState } from "react";
import { CopyButton } from "../../components/ui/copy-button.js";
import { type Exchange, messagesFor } from "./chat-history.js";
import { type ChatSettings, ChatSettingsFields, DEFAULT_CHAT_SETTINGS } from "./chat-settings.js";
import { playgroundClient } from "./playground-client.js";
import { PlaygroundError } from "./playground-error.js";
import { submitTo, useRun } from "./use-run.js";

interface ChatPlaygroundProps {
  modelId: string;
  /** A hosted provider, or with `own` an own provider the router alone knows (`org/name` for an organization's). */
  provider: InferenceProvider | string;
  own?: boolean;
  hubUrl: string;
  accessToken: string;
  /** The signed-in user's CSRF token: without a token, calls go with their session (playground-client.ts). */
  csrfToken?: string;
}

/** A chat whose replies stream in token by token; Stop aborts the request mid-stream. */
export function ChatPlayground({
  modelId,
  provider,
  own = false,
  hubUrl,
  accessToken,
  csrfToken,
}: ChatPlaygroundProps) {
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [draft, setDraft] = useState("");
  const [settings, setSettings] = useState<ChatSettings>(DEFAULT_CHAT_SETTINGS);
  const { running, run, stop } = useRun();
  const nextId = useRef(1);
  const log = useRef<HTMLOListElement>(null);

  // The conversation scrolls inside its own box; each new token keeps the newest text in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the conversation changes.
  useEffect(() => {
    const box = log.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [exchanges]);

  const update = (id: number, change: (exchange: Exchange) => Partial<Exchange>) =>
    setExchanges((current) =>
      current.map((exchange) => (exchange.id === id ? { ...exchange, ...change(exchange) } : exchange)),
    );

  const ask = async (question: string, earlier: Exchange[]) => {
    const id = nextId.current++;
    setExchanges([...earlier, { id, user: question, reply: "", status: "streaming" }]);
    const outcome = await run(async (signal) => {
      const client = playgroundClient(hubUrl, accessToken, csrfToken);
      const call = {
        messages: messagesFor(settings.systemPrompt, earlier, question),
        temperature: settings.temperature,
        max_tokens: settings.maxTokens,
        top_p: settings.topP,
      };
      // An own provider has no route of its own: the router's OpenAI-compatible /v1 takes it named in `model`.
      const stream = own
        ? client
            .endpoint(hubUrl)
            .chatCompletionStream({ ...call, model: `${modelId}:${provider}` }, { signal })
        : client.chatCompletionStream(
            { ...call, model: modelId, provider: provider as InferenceProvider },
            { signal },
          );
      for await (const chunk of stream) {
        const delta = chunk.choices?.[0]?.delta?.content;
        if (delta) update(id, (exchange) => ({ reply: exchange.reply + delta }));
      }
    });
    if (outcome.status === "failed") update(id, () => ({ status: "failed", error: outcome.error }));
    else update(id, () => ({ status: outcome.status === "stopped" ? "stopped" : "done" }));
  };

  const send = () => {
    const question = draft.trim();
    if (!question || running) return;
    setDraft("");
    void ask(question, exchanges);
  };

  // The failed question is asked again at the end of the conversation, with every answered exchange as
  // history; nothing the reader had is dropped.
  const retry = (exchange: Exchange) => {
    if (running) return;
    void ask(
      exchange.user,
      exchanges.filter((candidate) => candidate.id !== exchange.id),
    );
  };

  return (
    <div className="flex min-w-0 flex-col gap-3">
      <ChatSettingsFields settings={settings} onChange={setSettings} />
      <ol
        ref={log}
        aria-label="Conversation"
        data-testid="conversation"
        className="flex max-h-[min(60vh,36rem)] min-h-40 min-w-0 flex-col gap-3 overflow-y-auto rounded-lg border border-line bg-surface p-3"
      >
        {exchanges.length === 0 ? (
          <li className="m-auto text-sm text-muted">Send a message to start.</li>
        ) : null}
        {exchanges.map((exchange) => (
          <ExchangeItems
            key={exchange.id}
            exchange={exchange}
            onRetry={running ? undefined : () => retry(exchange)}
          />
        ))}
      </ol>
      <p aria-live="polite" className="sr-only">
        {running ? "The model is replying." : ""}
      </p>
      <form className="flex flex-col gap-2 sm:flex-row" onSubmit={submitTo(send)}>
        <textarea
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              send();
            }
          }}
          aria-label="Your message"
          placeholder="Ask something…"
          rows={2}
          className="min-h-11 min-w-0 flex-1 resize-y rounded-md border border-line bg-surface p-2 text-sm focus:border-accent"
        />
        <div className="flex gap-2">
          {running ? (
            <button
              type="button"
              onClick={stop}
              className="h-11 flex-1 rounded-md border border-danger px-4 text-sm font-medium text-danger"
            >
              Stop
            </button>
          ) : (
            <button
              type="submit"
              disabled={!draft.trim()}
              className="h-11 flex-1 rounded-md bg-accent px-4 text-sm font-medium text-accent-ink disabled:opacity-50"
            >
              Send
            </button>
          )}
          <button
            type="button"
            onClick={() => setExchanges([])}
            disabled={running || exchanges.length === 0}
            className="h-11 rounded-md border border-line px-3 text-sm font-medium text-muted hover:text-ink disabled:opacity-50"
          >
            Clear
          </button>
        </div>
      </form>
    </div>
  );
}

/** The reader's question and the model's answer, as two list items; a failed answer says why. */
function ExchangeItems({ exchange, onRetry }: { exchange: Exchange; onRetry?: () => void }) {
  const bubble =
    "max-w-[85%] min-w-0 whitespace-pre-wrap break-words [overflow-wrap:anywhere] rounded-lg px-3 py-2 text-sm";
  return (
    <>
      <li className={`${bubble} self-end bg-accent text-accent-ink`} data-testid="user-turn">
        <span className="sr-only">You: </span>
        {exchange.user}
      </li>
      <li
        className={`${bubble} self-start ${exchange.status === "failed" ? "border border-danger bg-danger-soft" : "bg-raised"}`}
        data-testid="assistant-turn"
        data-status={exchange.status}
      >
        <span className="sr-only">Model: </span>
        {exchange.status === "failed" ? (
          <span className="flex flex-col gap-2">
            <span className="font-medium text-danger">Failed: not sent as history.</span>
            <PlaygroundError message={exchange.error ?? "The call failed."} />
          </span>
        ) : (
          exchange.reply || (exchange.status === "streaming" ? "…" : "")
        )}
        {exchange.status === "stopped" ? <em className="ml-1 text-xs text-muted">(stopped)</em> : null}
        {exchange.status !== "streaming" ? (
          <span className="mt-2 flex gap-2">
            {exchange.reply ? <CopyButton text={exchange.reply} what="reply" /> : null}
            {onRetry ? (
              <button
                type="button"
                onClick={onRetry}
                className="inline-flex h-7 items-center rounded-md border border-line bg-surface px-2 text-xs font-medium text-muted hover:text-ink"
              >
                Retry
              </button>
            ) : null}
          </span>
        ) : null}
      </li>
    </>
  );
}
