import { queryOptions, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { hubGet } from "../../lib/api/hub-fetch.js";
import { queryClient } from "../../lib/query-client.js";
import { accountSend } from "../account/account-api.js";
import {
  errorText,
  FormMessage,
  optionalField,
  SettingsSection,
  SubmitButton,
  secondaryButtonClass,
  TextField,
  useFormOutcome,
} from "../account/form-parts.js";
import {
  ConnectionFields,
  mappingOf,
  ProviderSummary,
  type ProviderSummaryView,
  ServedModels,
  ServeModelForm,
} from "../own-providers/provider-parts.js";
import { type OrgProviderPrice, PriceModelForm, ProviderPrices, priceOf } from "./org-provider-prices.js";

/** An organization's provider as `GET /api/organizations/{org}/providers` answers (hub: org-own-providers-service.ts). */
export interface OrgProviderView extends ProviderSummaryView {
  /** What callers write after the model's colon: `org/name`. */
  id: string;
  name: string;
  /** Masked (`****abcd`): the key itself is never answered. */
  apiKey: string | null;
  /** What `/v1/models` tells members of its offer, per model it serves. */
  prices: OrgProviderPrice[];
}

const pathOf = (org: string) => `/api/organizations/${encodeURIComponent(org)}/providers`;
export const orgProvidersQuery = (org: string) =>
  queryOptions({
    queryKey: ["org-providers", org.toLowerCase()],
    queryFn: async ({ signal }) => (await hubGet<OrgProviderView[]>(pathOf(org), signal)).data,
  });

/**
 * An organization's own inference providers, on its page: OpenAI-compatible servers the router offers to
 * the organization's members only (`owner/name:org/server`). Members see them and their health; admins add,
 * replace and remove them and map models to them.
 */
export function OrgProviders({ org, canManage }: { org: string; canManage: boolean }) {
  const providers = useQuery(orgProvidersQuery(org));
  const [error, setError] = useState<string | null>(null);
  const added = useFormOutcome();
  const mapped = useFormOutcome();
  const priced = useFormOutcome();
  const path = pathOf(org);
  const refresh = () => queryClient.invalidateQueries({ queryKey: orgProvidersQuery(org).queryKey });
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await refresh();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const add = added.submitAndReset(async (fields) => {
    const name = String(fields.get("name"));
    await accountSend("PUT", `${path}/${encodeURIComponent(name)}`, {
      baseUrl: String(fields.get("baseUrl")),
      apiKey: optionalField(fields, "apiKey"),
      healthPath: optionalField(fields, "healthPath"),
    });
    await refresh();
    return `Saved ${name}: call it as owner/name:${org}/${name}.`;
  });
  const map = mapped.submitAndReset(async (fields) => {
    const name = String(fields.get("provider"));
    await accountSend("PUT", `${path}/${encodeURIComponent(name)}/models`, mappingOf(fields));
    await refresh();
    return `${String(fields.get("model"))} is served by ${name}.`;
  });

  const price = priced.submitAndReset(async (fields) => {
    const name = String(fields.get("provider"));
    await accountSend("PUT", `${path}/${encodeURIComponent(name)}/prices`, priceOf(fields));
    await refresh();
    return `Saved the price of ${String(fields.get("model"))} on ${name}.`;
  });

  return (
    <>
      <SettingsSection title="Inference providers">
        <p className="text-sm text-muted">
          Your organization's own OpenAI-compatible servers. Only its members can see and call them through
          the hub's <code>/v1</code> API, as <code>owner/name</code> or <code>owner/name:{org}/server</code>.
          Their calls are counted in the organization's usage.
        </p>
        {providers.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
        {providers.isError ? <FormMessage error={errorText(providers.error)} /> : null}
        {providers.data?.length === 0 ? <p className="text-sm text-muted">No providers yet.</p> : null}
        {providers.data?.length ? (
          <ul
            className="flex flex-col divide-y divide-line rounded-md border border-line"
            aria-label="Inference providers"
          >
            {providers.data.map((provider) => (
              <li key={provider.id} className="flex flex-col gap-1 p-3 text-sm">
                <ProviderSummary
                  title={provider.id}
                  provider={provider}
                  keyText={provider.apiKey ?? "none"}
                />
                <ServedModels
                  models={provider.models}
                  action={
                    canManage
                      ? (model) => (
                          <button
                            type="button"
                            className={secondaryButtonClass}
                            aria-label={`Stop serving ${model.model} on ${provider.name}`}
                            onClick={() =>
                              act(() =>
                                accountSend(
                                  "DELETE",
                                  `${path}/${encodeURIComponent(provider.name)}/models?model=${encodeURIComponent(model.model)}&kind=${model.kind}`,
                                ),
                              )
                            }
                          >
                            Unmap
                          </button>
                        )
                      : undefined
                  }
                />
                <ProviderPrices
                  prices={provider.prices ?? []}
                  action={
                    canManage
                      ? (entry) => (
                          <button
                            type="button"
                            className={secondaryButtonClass}
                            aria-label={`Remove the price of ${entry.model} on ${provider.name}`}
                            onClick={() =>
                              act(() =>
                                accountSend(
                                  "DELETE",
                                  `${path}/${encodeURIComponent(provider.name)}/prices?model=${encodeURIComponent(entry.model)}`,
                                ),
                              )
                            }
                          >
                            Remove price
                          </button>
                        )
                      : undefined
                  }
                />
                {canManage ? (
                  <div>
                    <button
                      type="button"
                      className={secondaryButtonClass}
                      aria-label={`Remove ${provider.name}`}
                      onClick={() =>
                        act(() => accountSend("DELETE", `${path}/${encodeURIComponent(provider.name)}`))
                      }
                    >
                      Remove
                    </button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {canManage ? (
          <div>
            <button
              type="button"
              className={secondaryButtonClass}
              onClick={() => act(() => accountSend("POST", `${path}/check`))}
            >
              Check health now
            </button>
          </div>
        ) : null}
        <FormMessage error={error} />
      </SettingsSection>
      {canManage ? (
        <>
          <SettingsSection title="Add or replace a provider" className="flex max-w-xl flex-col gap-3">
            <form onSubmit={add} aria-label="Add or replace a provider" className="flex flex-col gap-3">
              <TextField
                label="Name"
                name="name"
                required
                autoComplete="off"
                hint={`Lower-case letters, digits and dashes; called as ${org}/name.`}
              />
              <ConnectionFields placeholder="https://gpu.example.org/v1" />
              <FormMessage error={added.message.error} success={added.message.success} />
              <SubmitButton>Save provider</SubmitButton>
            </form>
          </SettingsSection>
          <ServeModelForm
            onSubmit={map}
            message={mapped.message}
            providerLabel="Provider"
            providerHint="Its name, without the organization."
          />
          <PriceModelForm onSubmit={price} message={priced.message} />
        </>
      ) : null}
    </>
  );
}
