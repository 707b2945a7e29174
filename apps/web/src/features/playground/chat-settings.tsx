export interface ChatSettings {
  systemPrompt: string;
  temperature: number;
  maxTokens: number;
  topP: number;
}

export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  systemPrompt: "",
  temperature: 0.7,
  maxTokens: 512,
  topP: 0.95,
};

const NUMBER_FIELDS = [
  { key: "temperature", label: "Temperature", min: 0, max: 2, step: 0.1 },
  { key: "maxTokens", label: "Max tokens", min: 1, max: 8192, step: 1 },
  { key: "topP", label: "Top-p", min: 0, max: 1, step: 0.05 },
] as const;

/** The system prompt and the sampling parameters sent with every message of the chat. */
export function ChatSettingsFields({
  settings,
  onChange,
}: {
  settings: ChatSettings;
  onChange: (settings: ChatSettings) => void;
}) {
  return (
    <details className="rounded-lg border border-line p-3 text-sm">
      <summary className="cursor-pointer font-medium">
        Settings{" "}
        <span className="font-normal text-muted">
          (temperature {settings.temperature}, max tokens {settings.maxTokens}, top-p {settings.topP}
          {settings.systemPrompt.trim() ? ", system prompt" : ""})
        </span>
      </summary>
      <div className="mt-3 flex flex-col gap-3">
        <label className="flex flex-col gap-1">
          <span className="text-xs font-medium text-muted">System prompt</span>
          <textarea
            value={settings.systemPrompt}
            onChange={(event) => onChange({ ...settings, systemPrompt: event.target.value })}
            rows={2}
            placeholder="You are a helpful assistant."
            className="min-w-0 rounded-md border border-line bg-surface p-2 text-sm focus:border-accent"
          />
        </label>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          {NUMBER_FIELDS.map((field) => (
            <label key={field.key} className="flex min-w-0 flex-col gap-1">
              <span className="text-xs font-medium text-muted">{field.label}</span>
              <input
                type="number"
                min={field.min}
                max={field.max}
                step={field.step}
                value={settings[field.key]}
                onChange={(event) => {
                  const value = event.target.valueAsNumber;
                  if (Number.isFinite(value)) {
                    onChange({ ...settings, [field.key]: Math.min(field.max, Math.max(field.min, value)) });
                  }
                }}
                className="h-9 min-w-0 rounded-md border border-line bg-surface px-2 text-sm focus:border-accent"
              />
            </label>
          ))}
        </div>
      </div>
    </details>
  );
}
