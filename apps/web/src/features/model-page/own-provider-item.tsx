import type { ModelOwnProvider } from "../../lib/api/own-providers.js";

const HEALTH: Record<ModelOwnProvider["health"], { label: string; dot: string }> = {
  up: { label: "up", dot: "bg-ok" },
  down: { label: "down: skipped until it recovers", dot: "bg-danger" },
  unknown: { label: "not checked yet", dot: "bg-muted" },
};

/** An own provider in the model's providers list: its router name, whose it is, its health and price. */
export function OwnProviderItem({ provider }: { provider: ModelOwnProvider }) {
  const health = HEALTH[provider.health];
  const { input, output } = provider.pricing ?? {};
  return (
    <li
      className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-0.5 text-xs"
      data-testid="own-provider"
      data-provider={provider.provider}
    >
      <span className="rounded border border-line px-1.5 py-0.5 font-mono break-all">
        {provider.provider}
      </span>
      <span className="rounded bg-accent-soft px-1.5 text-[11px] font-medium text-accent">
        {provider.org ? `${provider.org}'s own` : "this hub's own"}
      </span>
      <span className="inline-flex items-center gap-1 text-muted" data-testid="own-provider-health">
        <span aria-hidden="true" className={`inline-block size-2 rounded-full ${health.dot}`} />
        {health.label}
      </span>
      {input !== undefined || output !== undefined ? (
        <span className="text-muted">
          ${input ?? "–"} in / ${output ?? "–"} out per 1M tokens
        </span>
      ) : null}
    </li>
  );
}
