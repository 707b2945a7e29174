import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { errorText, FormMessage, SettingsSection, secondaryButtonClass } from "../account/form-parts.js";
import { DeliveryLog } from "./delivery-log.js";
import { WebhookForm } from "./webhook-form.js";
import {
  createWebhook,
  deleteWebhook,
  sendTestEvent,
  setWebhookEnabled,
  updateWebhook,
  type Webhook,
  webhooksQuery,
} from "./webhooks-api.js";

const DOMAIN_NAMES: Record<string, string> = {
  repo: "repository changes",
  discussion: "discussions",
  discussions: "discussions",
};

/** One webhook: what it watches, its state, and its actions (edit, enable or disable, test, log, delete). */
function WebhookItem({ webhook }: { webhook: Webhook }) {
  const [editing, setEditing] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const act = (action: () => Promise<string>) => async () => {
    setMessage({});
    try {
      setMessage({ success: await action() });
    } catch (failure) {
      setMessage({ error: errorText(failure) });
    }
  };
  const watched = webhook.watched.map((w) => `${w.type} ${w.name}`).join(", ");
  return (
    <li className="flex min-w-0 flex-col gap-3 p-3">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <p className="min-w-0 break-all font-mono text-sm">{webhook.url}</p>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${webhook.disabled ? "bg-danger-soft text-danger" : "bg-accent-soft text-accent"}`}
        >
          {webhook.disabled ? "Disabled" : "Enabled"}
        </span>
      </div>
      <p className="text-xs text-muted">
        Watches {watched} · {webhook.domains.map((d) => DOMAIN_NAMES[d] ?? d).join(" and ") || "no events"}
        {webhook.secret ? " · with a secret" : ""}
      </p>
      {webhook.disabledReason ? <p className="text-sm text-danger">{webhook.disabledReason}</p> : null}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={secondaryButtonClass} onClick={() => setEditing(!editing)}>
          {editing ? "Close editing" : "Edit"}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={act(async () => {
            await setWebhookEnabled(webhook.id, webhook.disabled);
            return webhook.disabled ? "Webhook enabled." : "Webhook disabled.";
          })}
        >
          {webhook.disabled ? "Enable" : "Disable"}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={act(async () => {
            await sendTestEvent(webhook.id);
            setShowLog(true);
            return "Test event queued: its delivery is in the log below.";
          })}
        >
          Send a test event
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          aria-expanded={showLog}
          onClick={() => setShowLog(!showLog)}
        >
          {showLog ? "Hide deliveries" : "Deliveries"}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={act(async () => {
            if (!window.confirm(`Delete the webhook to ${webhook.url}?`)) return "Nothing deleted.";
            await deleteWebhook(webhook.id);
            return "Webhook deleted.";
          })}
        >
          Delete
        </button>
      </div>
      <FormMessage error={message.error} success={message.success} />
      {editing ? (
        <WebhookForm
          webhook={webhook}
          label={`Edit the webhook to ${webhook.url}`}
          submitLabel="Save webhook"
          onCancel={() => setEditing(false)}
          onSave={async (fields) => {
            await updateWebhook(webhook.id, fields);
            setEditing(false);
            return "Webhook saved.";
          }}
        />
      ) : null}
      {showLog ? <DeliveryLog webhookId={webhook.id} label={`Deliveries to ${webhook.url}`} /> : null}
    </li>
  );
}

/** `/settings/webhooks`: the signed-in user's webhooks (the public hub's /api/settings/webhooks). */
export function WebhooksSettings() {
  const webhooks = useQuery(webhooksQuery);
  return (
    <div className="flex flex-col gap-8">
      <SettingsSection title="Your webhooks">
        <p className="text-sm text-muted">
          A webhook tells a service (CI, a bot) when the users, organizations or repositories it watches
          change. It hears of private repositories only while you may read them.
        </p>
        {webhooks.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
        {webhooks.isError ? <FormMessage error={errorText(webhooks.error)} /> : null}
        {webhooks.data?.length === 0 ? <p className="text-sm text-muted">No webhooks yet.</p> : null}
        {webhooks.data?.length ? (
          <ul
            className="flex min-w-0 flex-col divide-y divide-line rounded-md border border-line"
            aria-label="Webhooks"
          >
            {webhooks.data.map((webhook) => (
              <WebhookItem key={webhook.id} webhook={webhook} />
            ))}
          </ul>
        ) : null}
      </SettingsSection>
      <SettingsSection title="New webhook" className="flex flex-col gap-4">
        <WebhookForm
          label="New webhook"
          submitLabel="Create webhook"
          onSave={async (fields) => {
            await createWebhook(fields);
            return "Webhook created.";
          }}
        />
      </SettingsSection>
    </div>
  );
}
