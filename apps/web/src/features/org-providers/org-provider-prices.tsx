import type { FormEvent, ReactNode } from "react";
import {
  FormMessage,
  optionalField,
  SettingsSection,
  SubmitButton,
  TextField,
} from "../account/form-parts.js";

/** A price of an organization's provider for one model it serves (hub: org-own-providers-service.ts). */
export interface OrgProviderPrice {
  model: string;
  /** USD per million tokens; null when not set. */
  inputPrice: number | null;
  outputPrice: number | null;
  contextLength: number | null;
}

/** How a price reads: what `/v1/models` tells the organization's members. */
export function priceText(price: OrgProviderPrice): string {
  const parts = [
    price.inputPrice !== null ? `$${price.inputPrice} in` : undefined,
    price.outputPrice !== null ? `$${price.outputPrice} out per 1M tokens` : undefined,
    price.contextLength !== null
      ? `${price.contextLength.toLocaleString("en")} tokens of context`
      : undefined,
  ].filter(Boolean);
  return `${price.model}: ${parts.length > 0 ? parts.join(", ") : "nothing set"}`;
}

/** A provider's prices, each with the action an admin may take on it. */
export function ProviderPrices({
  prices,
  action,
}: {
  prices: OrgProviderPrice[];
  action?: (price: OrgProviderPrice) => ReactNode;
}) {
  if (prices.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-xs text-muted" aria-label="Prices">
      {prices.map((price) => (
        <li key={price.model} className="flex min-w-0 flex-wrap items-center gap-2">
          <span className="break-all">{priceText(price)}</span>
          {action?.(price)}
        </li>
      ))}
    </ul>
  );
}

/** A number field of the price form: left empty, the figure is not set. */
function numberOf(fields: FormData, name: string): number | undefined {
  const raw = optionalField(fields, name);
  return raw === undefined ? undefined : Number(raw);
}

/** The price form's body (the hub checks the figures and says what is wrong). */
export const priceOf = (fields: FormData) => ({
  model: String(fields.get("model")),
  inputPrice: numberOf(fields, "inputPrice"),
  outputPrice: numberOf(fields, "outputPrice"),
  contextLength: numberOf(fields, "contextLength"),
});

/** "Price a served model": what `/v1/models` tells members of a provider's offer for a model it serves. */
export function PriceModelForm({
  onSubmit,
  message,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  message: { error?: string; success?: string };
}) {
  return (
    <SettingsSection title="Price a served model" className="flex max-w-xl flex-col gap-3">
      <form onSubmit={onSubmit} aria-label="Price a served model" className="flex flex-col gap-3">
        <TextField
          label="Provider"
          name="provider"
          required
          autoComplete="off"
          hint="Its name, without the organization."
        />
        <TextField label="Hub model" name="model" required autoComplete="off" placeholder="owner/name" />
        <TextField
          label="Input price"
          name="inputPrice"
          type="number"
          min={0}
          step="any"
          hint="USD per million tokens; empty: not told."
        />
        <TextField
          label="Output price"
          name="outputPrice"
          type="number"
          min={0}
          step="any"
          hint="USD per million tokens; empty: not told."
        />
        <TextField
          label="Context length"
          name="contextLength"
          type="number"
          min={1}
          step={1}
          hint="Tokens."
        />
        <FormMessage error={message.error} success={message.success} />
        <SubmitButton>Save price</SubmitButton>
      </form>
    </SettingsSection>
  );
}
