import type { ModelData } from "@modelhub/tasks";
import { useEffect, useMemo, useState } from "react";
import { CodeBlock } from "../../components/ui/code-block.js";
import { Select } from "../../components/ui/select.js";
import { chatTemplatesOf, tokenText } from "../../lib/chat-template-source.js";
import {
  type EditableMessage,
  message,
  nextRole,
  ROLES,
  type Role,
  starterConversation,
} from "./conversation.js";
import { createTemplateRenderer, type TemplateRenderer } from "./render-in-worker.js";
import type { RenderOutcome } from "./render-protocol.js";

/** The model's chat template, rendered by our Jinja engine for a conversation the reader edits. */
export function ChatTemplateView({ model }: { model: ModelData }) {
  const templates = useMemo(() => chatTemplatesOf(model), [model]);
  const [templateName, setTemplateName] = useState(templates[0]?.name ?? "default");
  const [messages, setMessages] = useState<EditableMessage[]>(starterConversation);
  const [addGenerationPrompt, setAddGenerationPrompt] = useState(true);

  const source = templates.find((entry) => entry.name === templateName)?.template ?? templates[0]?.template;
  const tokenizer = model.config?.tokenizer_config;
  const bosToken = tokenText(tokenizer?.bos_token) || model.gguf?.bos_token || "";
  const eosToken = tokenText(tokenizer?.eos_token) || model.gguf?.eos_token || "";

  // Rendering happens in a worker with a hard time limit (render-in-worker.ts), never on this thread.
  const [renderer, setRenderer] = useState<TemplateRenderer>();
  useEffect(() => {
    const created = createTemplateRenderer();
    setRenderer(created);
    return () => created.dispose();
  }, []);
  const [output, setOutput] = useState<RenderOutcome>();
  useEffect(() => {
    if (!renderer || source === undefined) return;
    let current = true;
    const context = {
      messages: messages.map(({ role, content }) => ({ role, content })),
      add_generation_prompt: addGenerationPrompt,
      bos_token: bosToken,
      eos_token: eosToken,
    };
    void renderer.render(source, context).then((outcome) => {
      if (current && outcome) setOutput(outcome);
    });
    return () => {
      current = false;
    };
  }, [renderer, source, messages, addGenerationPrompt, bosToken, eosToken]);

  if (!source) {
    return <p className="text-muted">This model declares no chat template.</p>;
  }

  const setMessage = (key: number, change: Partial<EditableMessage>) =>
    setMessages((current) => current.map((entry) => (entry.key === key ? { ...entry, ...change } : entry)));

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
      <section aria-labelledby="conversation-heading" className="flex min-w-0 flex-col gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="conversation-heading" className="text-lg font-semibold">
            Conversation
          </h2>
          {templates.length > 1 ? (
            <Select
              label="Template"
              value={templateName}
              options={templates.map((entry) => ({ value: entry.name, label: entry.name }))}
              onValueChange={setTemplateName}
              className="w-48"
            />
          ) : null}
        </div>
        <ol className="flex flex-col gap-3">
          {messages.map((entry, index) => (
            <li key={entry.key} className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3">
              <div className="flex items-center justify-between gap-2">
                <Select
                  label={`Role of message ${index + 1}`}
                  showLabel={false}
                  value={entry.role}
                  options={ROLES.map((role) => ({ value: role, label: role }))}
                  onValueChange={(role) => setMessage(entry.key, { role: role as Role })}
                  className="w-36"
                />
                <button
                  type="button"
                  onClick={() => setMessages((current) => current.filter((other) => other.key !== entry.key))}
                  aria-label={`Remove message ${index + 1}`}
                  className="rounded-md px-2 py-1 text-sm text-muted hover:bg-danger-soft hover:text-danger"
                >
                  Remove
                </button>
              </div>
              <textarea
                value={entry.content}
                onChange={(event) => setMessage(entry.key, { content: event.target.value })}
                aria-label={`Content of message ${index + 1}`}
                rows={2}
                className="w-full resize-y rounded-md border border-line bg-canvas p-2 text-sm focus:border-accent"
              />
            </li>
          ))}
        </ol>
        <div className="flex flex-wrap items-center gap-4">
          <button
            type="button"
            onClick={() => setMessages((current) => [...current, message(nextRole(current), "")])}
            className="rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium hover:border-accent"
          >
            Add message
          </button>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={addGenerationPrompt}
              onChange={(event) => setAddGenerationPrompt(event.target.checked)}
              className="size-4 accent-accent"
            />
            Add generation prompt
          </label>
        </div>
      </section>
      <section aria-labelledby="prompt-heading" className="flex min-w-0 flex-col gap-3">
        <h2 id="prompt-heading" className="text-lg font-semibold">
          Prompt the model sees
        </h2>
        {output && "error" in output ? (
          <p role="alert" className="rounded-md bg-danger-soft p-3 text-sm text-danger">
            {output.phase === "parse" ? `The template does not parse: ${output.error}` : output.error}
          </p>
        ) : null}
        {output && "prompt" in output ? (
          <CodeBlock code={output.prompt} label="Rendered prompt" wrap testId="rendered-prompt" />
        ) : null}
        <details className="rounded-lg border border-line bg-surface">
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium">Template source</summary>
          <div className="p-3 pt-0">
            <CodeBlock code={source} label="Chat template source" />
          </div>
        </details>
      </section>
    </div>
  );
}
