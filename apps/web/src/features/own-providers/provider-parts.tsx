import type { FormEvent, ReactNode } from "react";
import {
  FormMessage,
  optionalField,
  SettingsSection,
  SubmitButton,
  TextField,
} from "../account/form-parts.js";

/**
 * What the site's own providers (`/admin/providers`) and an organization's (its page) show and ask alike:
 * one provider's summary, the models it serves, the connection fields and the model-mapping form. The hub
 * answers both with the same shape (router/own-provider-checks.ts builds their settings).
 */

export interface ProviderModel {
  model: string;
  kind: "chat" | "embeddings";
  servedName: string;
}

export interface ProviderSummaryView {
  baseUrl: string;
  healthPath: string;
  hostedFailover: boolean;
  models: ProviderModel[];
  health: { status: "up" | "down" | "unknown"; checkedAt: string | null; error: string | null };
}

const HEALTH_LABEL = { up: "Up", down: "Down", unknown: "Not checked yet" } as const;

/** A provider's name, base URL, health, key and health path: the first lines of its list item. */
export function ProviderSummary({
  title,
  provider,
  keyText,
}: {
  title: string;
  provider: ProviderSummaryView;
  keyText: string;
}) {
  return (
    <>
      <div className="flex flex-wrap items-baseline gap-x-3">
        <span className="font-medium">{title}</span>
        <span className="break-all text-muted">{provider.baseUrl}</span>
        <span className={provider.health.status === "down" ? "font-medium text-danger" : "text-muted"}>
          {HEALTH_LABEL[provider.health.status]}
          {provider.health.error ? ` (${provider.health.error})` : ""}
        </span>
      </div>
      <div className="text-muted">
        Key: {keyText} · health path {provider.healthPath}
        {provider.hostedFailover ? "" : " · calls stay off hosted providers"}
      </div>
    </>
  );
}

/** The hub models a provider serves; `action` adds a control per model (an organization's "Unmap"). */
export function ServedModels({
  models,
  action,
}: {
  models: ProviderModel[];
  action?: (model: ProviderModel) => ReactNode;
}) {
  if (!models.length) return <p className="text-muted">Serves no hub model yet.</p>;
  return (
    <ul className="text-muted">
      {models.map((model) => (
        <li key={`${model.model} ${model.kind}`} className="flex flex-wrap items-center gap-2">
          <span className="break-all">
            {model.model} ({model.kind}) as {model.servedName}
          </span>
          {action?.(model)}
        </li>
      ))}
    </ul>
  );
}

/** The base URL, key and health path fields of the "add or replace" forms. */
export function ConnectionFields({ placeholder, keyExtra }: { placeholder: string; keyExtra?: ReactNode }) {
  return (
    <>
      <TextField label="Base URL" name="baseUrl" required autoComplete="off" placeholder={placeholder} />
      <TextField
        label="API key"
        name="apiKey"
        type="password"
        autoComplete="off"
        hint="Stored encrypted; left empty, a replaced server keeps its key."
      />
      {keyExtra}
      <TextField
        label="Health path"
        name="healthPath"
        autoComplete="off"
        hint="Default: the base URL's /models."
      />
    </>
  );
}

/** "Serve a hub model": maps a hub model to the name a provider's server knows it by. */
export function ServeModelForm({
  onSubmit,
  message,
  providerLabel,
  providerHint,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  message: { error?: string; success?: string };
  providerLabel: string;
  providerHint?: string;
}) {
  return (
    <SettingsSection title="Serve a hub model" className="flex max-w-xl flex-col gap-3">
      <form onSubmit={onSubmit} aria-label="Serve a hub model" className="flex flex-col gap-3">
        <TextField label={providerLabel} name="provider" required autoComplete="off" hint={providerHint} />
        <TextField label="Hub model" name="model" required autoComplete="off" placeholder="owner/name" />
        <TextField label="Name on the server" name="servedName" required autoComplete="off" />
        <TextField label="Kind" name="kind" autoComplete="off" hint="chat (default) or embeddings." />
        <FormMessage error={message.error} success={message.success} />
        <SubmitButton>Map model</SubmitButton>
      </form>
    </SettingsSection>
  );
}

/** The mapping form's body; the kind as written (the hub names the kinds it takes), chat when left empty. */
export const mappingOf = (fields: FormData) => ({
  model: String(fields.get("model")),
  servedName: String(fields.get("servedName")),
  kind: optionalField(fields, "kind") ?? "chat",
});
