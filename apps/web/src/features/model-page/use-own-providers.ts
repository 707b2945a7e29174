import { useQuery } from "@tanstack/react-query";
import { type ModelOwnProvider, modelOwnProvidersQuery } from "../../lib/api/own-providers.js";
import { useSession } from "../account/account-api.js";

const NONE: ModelOwnProvider[] = [];

/** The own providers the viewer may use for a model; none while they load or when the hub has none. */
export function useOwnProviders(modelId: string): ModelOwnProvider[] {
  const session = useSession();
  const viewer = session.data?.name ?? null;
  const query = useQuery({ ...modelOwnProvidersQuery(modelId, viewer), enabled: !session.isPending });
  return query.data ?? NONE;
}

/** How a provider list names an own provider: its router name, and whose it is. */
export function ownProviderLabel(provider: ModelOwnProvider): string {
  return provider.org
    ? `${provider.provider} (${provider.org}'s own)`
    : `${provider.provider} (this hub's own)`;
}
