import type { InferenceProvider } from "@modelhub/inference";
import { useRef, useState } from "react";
import { errorMessage, isAbort, playgroundClient } from "./playground-client.js";
import { PlaygroundError } from "./playground-error.js";

interface Turn {
  role: "user" | "assistant";
  content: string;
  /** The reader stopped this reply before it finished. */
  stopped?: boolean;
}

interface ChatPlaygroundProps {
  modelId: string;
  provider: InferenceProvider;
  hubUrl: string;
  accessToken: string;
}

/** A chat whose replies stream in token by token; Stop aborts the request mid-stream. */
export function ChatPlayground({ modelId, provider, hubUrl, accessToken }: ChatPlaygroundProps) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string>();
  const [streaming, setStreaming] = useState(false);
  const controller = useRef<AbortController | null>(null);

  const appendToReply = (text: string, stopped?: boolean) =>
    setTurns((current) => {
      const last = current[current.length - 1];
      if (last?.role !== "assistant") return current;
      return [
        ...current.slice(0, -1),
        { ...last, content: last.content + text, ...(stopped ? { stopped } : {}) },
      ];
    });

  const send = async () => {
    const content = draft.trim();
    if (!content || streaming) return;
    const history: Turn[] = [...turns, { role: "user", content }];
    setTurns([...history, { role: "assistant", content: "" }]);
    setDraft("");
    setError(undefined);
    setStreaming(true);
    const abort = new AbortController();
    controller.current = abort;
    try {
      const client = playgroundClient(hubUrl, accessToken);
      const stream = client.chatCompletionStream(
        {
          model: modelId,
          provider,
          messages: history.map(({ role, content }) => ({ role, content })),
          max_tokens: 500,
        },
        { signal: abort.signal },
      );
      for await (const chunk of stream) {
        const delta = chunk.choices?.[0]?.delta?.content;
        if (delta) appendToReply(delta);
      }
    } catch (caught) {
      if (abort.signal.aborted || isAbort(caught)) appendToReply("", true);
      else setError(errorMessage(caught));
    } finally {
      controller.current = null;
      setStreaming(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <ol
        aria-label="Conversation"
        className="flex min-h-40 flex-col gap-3 rounded-lg border border-line bg-surface p-3"
      >
        {turns.length === 0 ? <li className="m-auto text-sm text-muted">Send a message to start.</li> : null}
        {turns.map((turn, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: turns are only appended.
            key={index}
            className={`max-w-[85%] whitespace-pre-wrap rounded-lg px-3 py-2 text-sm ${
              turn.role === "user" ? "self-end bg-accent text-accent-ink" : "self-start bg-raised"
            }`}
            data-testid={turn.role === "assistant" ? "assistant-turn" : "user-turn"}
          >
            <span className="sr-only">{turn.role === "user" ? "You:" : "Model:"} </span>
            {turn.content || (streaming && index === turns.length - 1 ? "…" : "")}
            {turn.stopped ? <em className="ml-1 text-xs text-muted">(stopped)</em> : null}
          </li>
        ))}
      </ol>
      <p aria-live="polite" className="sr-only">
        {streaming ? "The model is replying." : ""}
      </p>
      <PlaygroundError message={error} />
      <form
        className="flex flex-col gap-2 sm:flex-row"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <textarea
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              void send();
            }
          }}
          aria-label="Your message"
          placeholder="Ask something…"
          rows={2}
          className="min-h-11 flex-1 resize-y rounded-md border border-line bg-surface p-2 text-sm focus:border-accent"
        />
        {streaming ? (
          <button
            type="button"
            onClick={() => controller.current?.abort()}
            className="h-11 rounded-md border border-danger px-4 text-sm font-medium text-danger"
          >
            Stop
          </button>
        ) : (
          <button
            type="submit"
            disabled={!draft.trim()}
            className="h-11 rounded-md bg-accent px-4 text-sm font-medium text-accent-ink disabled:opacity-50"
          >
            Send
          </button>
        )}
      </form>
    </div>
  );
}
