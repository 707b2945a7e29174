import { queryClient } from "../../lib/query-client.js";
import { accountQuery, accountSend } from "../account/account-api.js";

export type WatchType = "user" | "org" | "model" | "dataset" | "space";
export interface Watched {
  type: WatchType;
  name: string;
}

/** A webhook as `/api/settings/webhooks` answers it (hub: webhooks/webhooks-service.ts webhookView). */
export interface Webhook {
  id: string;
  url: string;
  watched: Watched[];
  domains: string[];
  secret: string | null;
  disabled: boolean;
  disabledReason: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** One line of a webhook's delivery log (hub: deliveryView). */
export interface Delivery {
  id: number;
  status: "pending" | "delivering" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: string | null;
  responseStatus: number | null;
  error: string | null;
  replayOf: number | null;
  createdAt: string;
  finishedAt: string | null;
}

/** What the create and edit forms send. */
export interface WebhookFields {
  url: string;
  watched: Watched[];
  domains: string[];
  /** Empty clears it; undefined (on edit) keeps it. */
  secret?: string;
}

const BASE = "/api/settings/webhooks";
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const webhooksQuery = accountQuery<Webhook[]>(["settings-webhooks"], BASE);
export const deliveriesQuery = (id: string) =>
  accountQuery<{ deliveries: Delivery[] }>(
    ["settings-webhooks", id, "deliveries"],
    `${path(id)}/deliveries?limit=50`,
  );

/** A change, then the list (and logs) are read again. */
async function change<T>(method: "POST" | "DELETE", to: string, body?: unknown): Promise<T> {
  const answer = await accountSend<T>(method, to, body);
  await queryClient.invalidateQueries({ queryKey: ["settings-webhooks"] });
  return answer;
}

export const createWebhook = (fields: WebhookFields) => change<{ webhook: Webhook }>("POST", BASE, fields);
export const updateWebhook = (id: string, fields: WebhookFields) =>
  change<{ webhook: Webhook }>("POST", path(id), fields);
export const setWebhookEnabled = (id: string, enabled: boolean) =>
  change<{ webhook: Webhook }>("POST", `${path(id)}/${enabled ? "enable" : "disable"}`);
/**
 * The webhook leaves the list before anything is read again: its open delivery log (polled) would otherwise
 * ask for the deleted webhook's deliveries once more and get a 404.
 */
export async function deleteWebhook(id: string): Promise<void> {
  await accountSend<unknown>("DELETE", path(id));
  queryClient.setQueryData<Webhook[]>(["settings-webhooks"], (list) =>
    list?.filter((hook) => hook.id !== id),
  );
  queryClient.removeQueries({ queryKey: ["settings-webhooks", id] });
  await queryClient.invalidateQueries({ queryKey: ["settings-webhooks"], exact: true });
}
export const sendTestEvent = (id: string) => change<{ delivery: Delivery }>("POST", `${path(id)}/test`);
export const replayDelivery = (id: string, deliveryId: number) =>
  change<{ delivery: Delivery }>("POST", `${path(id)}/deliveries/${deliveryId}/replay`);
