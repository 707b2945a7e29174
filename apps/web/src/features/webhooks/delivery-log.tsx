import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { errorText, FormMessage, secondaryButtonClass } from "../account/form-parts.js";
import { type Delivery, deliveriesQuery, replayDelivery } from "./webhooks-api.js";

const STATUS_NAMES: Record<Delivery["status"], string> = {
  pending: "Pending",
  delivering: "Delivering",
  delivered: "Delivered",
  failed: "Failed",
};

/** How long a delivery took from queueing to its last attempt's answer, or "—" while it is under way. */
function took(delivery: Delivery): string {
  if (!delivery.finishedAt) return "—";
  const ms = Date.parse(delivery.finishedAt) - Date.parse(delivery.createdAt);
  return ms < 1000 ? `${Math.max(ms, 0)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function answer(delivery: Delivery): string {
  if (delivery.responseStatus !== null && !delivery.error) return String(delivery.responseStatus);
  return delivery.error ?? "—";
}

/** A webhook's recent deliveries: when, status, the receiver's answer, attempts, time taken; each replayable. */
export function DeliveryLog({ webhookId, label }: { webhookId: string; label: string }) {
  const log = useQuery({ ...deliveriesQuery(webhookId), refetchInterval: 3000 });
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const replay = async (delivery: Delivery) => {
    setMessage({});
    try {
      const again = await replayDelivery(webhookId, delivery.id);
      setMessage({ success: `Delivery ${delivery.id} queued again as ${again.delivery.id}.` });
    } catch (failure) {
      setMessage({ error: errorText(failure) });
    }
  };
  if (log.isPending) return <p className="text-sm text-muted">Loading deliveries…</p>;
  if (log.isError) return <FormMessage error={errorText(log.error)} />;
  const deliveries = log.data.deliveries;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <FormMessage error={message.error} success={message.success} />
      {deliveries.length === 0 ? (
        <p className="text-sm text-muted">No deliveries yet. Send a test event to make one.</p>
      ) : (
        // Relative: the header's sr-only (absolute) text stays inside the scroller instead of widening the page.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
        // biome-ignore lint/a11y/useSemanticElements: a div region is what wraps a scrolling table.
        <div className="relative overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead>
              <tr className="border-b border-line">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Queued
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Status
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Response
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Attempts
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Time
                </th>
                <th scope="col" className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id} className="border-b border-line align-top">
                  <td className="py-2 pr-3 whitespace-nowrap">
                    {new Date(delivery.createdAt).toLocaleString()}
                    {delivery.replayOf !== null ? (
                      <span className="block text-xs text-muted">replay of {delivery.replayOf}</span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-3">{STATUS_NAMES[delivery.status]}</td>
                  <td className="py-2 pr-3 break-words">{answer(delivery)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{delivery.attempts}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{took(delivery)}</td>
                  <td className="py-2">
                    <button
                      type="button"
                      className={secondaryButtonClass}
                      aria-label={`Replay delivery ${delivery.id}`}
                      onClick={() => replay(delivery)}
                    >
                      Replay
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
