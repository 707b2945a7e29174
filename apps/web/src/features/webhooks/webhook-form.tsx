import { type FormEvent, useId, useState } from "react";
import {
  errorText,
  FormMessage,
  inputClass,
  SubmitButton,
  secondaryButtonClass,
  TextField,
} from "../account/form-parts.js";
import type { Watched, WatchType, Webhook, WebhookFields } from "./webhooks-api.js";

const WATCH_TYPES: Record<WatchType, string> = {
  user: "User",
  org: "Organization",
  model: "Model",
  dataset: "Dataset",
  space: "Space",
};

/** The hub's domains: `repo` (commits, refs, settings) and `discussion` (discussions and their comments). */
const DOMAINS = [
  ["repo", "Repository changes (commits, branches and tags, settings)"],
  ["discussion", "Discussions, pull requests and comments"],
] as const;

/**
 * A webhook's fields: target URL, what it watches (rows of type and name), its domains and its secret.
 * Creates one when `webhook` is absent, else edits it (an empty secret field keeps the current secret).
 */
export function WebhookForm({
  webhook,
  label,
  submitLabel,
  onSave,
  onCancel,
}: {
  webhook?: Webhook;
  label: string;
  submitLabel: string;
  onSave: (fields: WebhookFields) => Promise<string>;
  onCancel?: () => void;
}) {
  const ids = useId();
  const [watched, setWatched] = useState<Watched[]>(webhook?.watched ?? [{ type: "model", name: "" }]);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const secret = String(data.get("secret") ?? "");
    const fields: WebhookFields = {
      url: String(data.get("url") ?? "").trim(),
      watched: watched
        .map((item) => ({ ...item, name: item.name.trim() }))
        .filter((item) => item.name !== ""),
      domains: data.getAll("domains").map(String),
      ...(webhook && secret === "" ? {} : { secret }),
    };
    setMessage({});
    try {
      const done = await onSave(fields);
      if (!webhook) {
        form.reset();
        setWatched([{ type: "model", name: "" }]);
      }
      setMessage({ success: done });
    } catch (failure) {
      setMessage({ error: errorText(failure) });
    }
  };

  return (
    <form onSubmit={submit} aria-label={label} className="flex max-w-xl flex-col gap-4">
      <TextField
        label="Target URL"
        name="url"
        type="url"
        required
        defaultValue={webhook?.url}
        placeholder="https://ci.example.com/hooks/modelhub"
        hint="Each event is POSTed here as JSON. Loopback and private addresses are refused unless the administrator allows them."
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">Watched</legend>
        <ul className="flex flex-col gap-2">
          {watched.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place.
            <li key={index} className="flex flex-wrap items-end gap-2">
              <div className="flex flex-col gap-1">
                <label htmlFor={`${ids}-type-${index}`} className="text-xs font-medium">
                  Kind
                </label>
                <select
                  id={`${ids}-type-${index}`}
                  value={item.type}
                  onChange={(event) =>
                    setWatched(
                      watched.map((w, i) =>
                        i === index ? { ...w, type: event.target.value as WatchType } : w,
                      ),
                    )
                  }
                  className={`${inputClass} w-auto`}
                >
                  {Object.entries(WATCH_TYPES).map(([value, name]) => (
                    <option key={value} value={value}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <label htmlFor={`${ids}-name-${index}`} className="text-xs font-medium">
                  Name
                </label>
                <input
                  id={`${ids}-name-${index}`}
                  value={item.name}
                  placeholder={item.type === "user" || item.type === "org" ? "name" : "owner/name"}
                  onChange={(event) =>
                    setWatched(watched.map((w, i) => (i === index ? { ...w, name: event.target.value } : w)))
                  }
                  className={inputClass}
                />
              </div>
              {watched.length > 1 ? (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  aria-label={`Stop watching ${item.name || `row ${index + 1}`}`}
                  onClick={() => setWatched(watched.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              ) : null}
            </li>
          ))}
        </ul>
        <button
          type="button"
          className={`${secondaryButtonClass} self-start`}
          onClick={() => setWatched([...watched, { type: "model", name: "" }])}
        >
          Watch another
        </button>
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">Events</legend>
        {DOMAINS.map(([value, name]) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="domains"
              value={value}
              defaultChecked={webhook ? webhook.domains.some((d) => d.startsWith(value)) : true}
              className="accent-accent"
            />
            {name}
          </label>
        ))}
      </fieldset>
      <TextField
        label="Secret"
        name="secret"
        type="password"
        autoComplete="off"
        hint={
          webhook
            ? "Sent in the X-Webhook-Secret header. Leave empty to keep the current one."
            : "Optional; sent in the X-Webhook-Secret header so the receiver knows the call is ours."
        }
      />
      <FormMessage error={message.error} success={message.success} />
      <div className="flex flex-wrap gap-2">
        <SubmitButton>{submitLabel}</SubmitButton>
        {onCancel ? (
          <button type="button" className={secondaryButtonClass} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
