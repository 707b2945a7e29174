import { isInferenceProvider } from "@modelhub/inference";
import type { AuditedTransactions } from "../audit/audit-log.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { Queryable } from "../store/database.js";
import {
  checkBaseUrl,
  checkKind,
  checkModelId,
  checkName,
  checkOfferFigures,
  checkServedName,
  connectionSettings,
  storedKey,
} from "./own-provider-checks.js";
import type { SecretBox } from "./own-provider-secrets.js";
import {
  createOwnProvidersTable,
  type OwnModelKind,
  type OwnModelRow,
  type OwnProviderRow,
} from "./own-providers-table.js";
import { providerPutEntry, unaudited } from "./provider-audit.js";
import { createRouterOffersTable, type RouterOffer } from "./router-offers-table.js";

/** What an administrator gives for an own provider (admin API body, admin CLI options). */
export interface OwnProviderInput {
  /** The server's OpenAI base URL, as its clients take it (`http://gpu-1:8000/v1`). */
  baseUrl: string;
  /** The key itself: stored sealed. At most one of apiKey and apiKeyEnv; neither: a server without a key. */
  apiKey?: string;
  /** The environment variable holding the key (OWN_PROVIDER_KEY_*), read by each hub process. */
  apiKeyEnv?: string;
  /** Path on the server's origin answering 2xx when it is up; default: the base URL's path + `/models`. */
  healthPath?: string;
  /** Longest wait for the server's answer headers, and longest silence within an answer. */
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** Whether calls this provider cannot take may go on to hosted providers (default true). */
  hostedFailover?: boolean;
}

/** An own provider as answers show it: the key masked, never sealed or clear. */
export interface OwnProviderView {
  name: string;
  baseUrl: string;
  apiKey: string | null;
  apiKeyEnv: string | null;
  healthPath: string;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  hostedFailover: boolean;
  models: { model: string; kind: OwnModelKind; servedName: string }[];
  health: OwnProviderHealth;
  createdAt: string;
  updatedAt: string;
}

/** This hub process's latest health check of a provider. */
export interface OwnProviderHealth {
  status: "up" | "down" | "unknown";
  checkedAt: string | null;
  /** Why the last check failed (no key, no URL credentials: only a status or a connection error's code). */
  error: string | null;
}

/** Only variables made for this: a site administrator must not send the hub's own secrets to a server. */
const KEY_ENV = /^OWN_PROVIDER_KEY_[A-Z0-9_]{1,64}$/;

export interface OwnProvidersServiceDeps {
  db: Queryable;
  /** The secrets key's box; loaded only when a key is stored or read. */
  secrets: () => SecretBox;
  /** The catalogue's model of an id (any letter case), for its exact id; undefined when none. */
  findModel(id: string): Promise<{ id: string } | undefined>;
  /** This process's health of each provider (the router's registry); unknown when not given. */
  health?(name: string): OwnProviderHealth;
  /** Told after every change: the router's registry reads the tables again at once. */
  onChanged?(): void;
  /** Writes each change with its audit log entry (site-wide: site admins read it); none: unaudited (tests). */
  audited?: AuditedTransactions;
  now?: () => Date;
}

/**
 * Own providers as the admin API and the admin CLI manage them: the same validation either way. The key
 * given is sealed before it is stored and never returned; answers show it masked.
 */
export function ownProvidersService(deps: OwnProvidersServiceDeps) {
  const table = createOwnProvidersTable(deps.db);
  const audited = deps.audited ?? unaudited(deps.db);
  const offers = createRouterOffersTable(deps.db);
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const unknownHealth: OwnProviderHealth = { status: "unknown", checkedAt: null, error: null };

  function view(row: OwnProviderRow, models: OwnModelRow[]): OwnProviderView {
    return {
      name: row.name,
      baseUrl: row.baseUrl,
      apiKey: row.apiKeyHint,
      apiKeyEnv: row.apiKeyEnv,
      healthPath: row.healthPath,
      headersTimeoutMs: row.headersTimeoutMs,
      idleTimeoutMs: row.idleTimeoutMs,
      hostedFailover: row.hostedFailover,
      models: models
        .filter((model) => model.provider === row.name)
        .map(({ modelId, kind, servedName }) => ({ model: modelId, kind, servedName })),
      health: deps.health?.(row.name) ?? unknownHealth,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  async function existing(name: string): Promise<OwnProviderRow> {
    const row = await table.get(name);
    if (!row) throw new NotFoundError(`No own inference provider is named "${name.slice(0, 60)}".`);
    return row;
  }

  async function viewOf(name: string): Promise<OwnProviderView> {
    return view(await existing(name), await table.models());
  }

  return {
    async list(): Promise<OwnProviderView[]> {
      const models = await table.models();
      return (await table.list()).map((row) => view(row, models));
    },

    get: viewOf,

    /** Creates or replaces a provider; a replaced one keeps its models, and its key when none is given. */
    async put(
      name: string,
      input: OwnProviderInput,
    ): Promise<{ provider: OwnProviderView; created: boolean }> {
      checkName(name);
      const baseUrl = checkBaseUrl(input.baseUrl);
      if (input.apiKey !== undefined && input.apiKeyEnv !== undefined) {
        throw new InvalidInputError(
          "Give the key (apiKey) or the variable holding it (apiKeyEnv), not both.",
        );
      }
      if (input.apiKeyEnv !== undefined && !KEY_ENV.test(input.apiKeyEnv)) {
        throw new InvalidInputError(
          "apiKeyEnv must name a variable OWN_PROVIDER_KEY_<NAME> (capitals, digits, _): the hub reads no other.",
        );
      }
      const keepsKey = input.apiKey === undefined && input.apiKeyEnv === undefined;
      // The previous state is read under the provider's lock, in the write's transaction: read before it,
      // two first puts of one name would both find none, and both be logged as its creation.
      const created = await audited.transaction(
        async (q, record) => {
          await q.lock(`own-provider:${name}`);
          const inTx = createOwnProvidersTable(q);
          const previous = await inTx.get(name);
          const at = now();
          const row: OwnProviderRow = {
            name,
            baseUrl,
            ...storedKey(input.apiKey, previous, keepsKey, (key) => deps.secrets().seal(name, key)),
            apiKeyEnv: keepsKey && previous ? previous.apiKeyEnv : (input.apiKeyEnv ?? null),
            ...connectionSettings(input, baseUrl),
            createdAt: previous?.createdAt ?? at,
            updatedAt: at,
          };
          await inTx.put(row);
          const { action, details } = providerPutEntry(previous, row, input.apiKey !== undefined);
          await record({ action, namespace: null, targetType: "provider", target: name, details });
          return previous === undefined;
        },
        { immediate: true },
      );
      deps.onChanged?.();
      return { provider: await viewOf(name), created };
    },

    async delete(name: string): Promise<void> {
      await audited.transaction(async (q, record) => {
        if (!(await createOwnProvidersTable(q).delete(name))) {
          throw new NotFoundError(`No own inference provider is named "${name.slice(0, 60)}".`);
        }
        await record({ action: "provider.delete", namespace: null, targetType: "provider", target: name });
      });
      deps.onChanged?.();
    },

    /** Maps a hub model to the name the provider's server knows it by. */
    async putModel(
      name: string,
      input: { model: string; kind?: string; servedName: string },
    ): Promise<OwnProviderView> {
      await existing(name);
      const kind = checkKind(input.kind ?? "chat");
      checkModelId(input.model);
      const model = await deps.findModel(input.model);
      if (!model) throw new NotFoundError(`Model ${input.model} does not exist on this hub.`);
      checkServedName(input.servedName);
      await audited.transaction(async (q, record) => {
        await createOwnProvidersTable(q).putModel({
          provider: name,
          modelId: model.id,
          kind,
          servedName: input.servedName,
        });
        await record({
          action: "provider.model-map",
          namespace: null,
          targetType: "provider",
          target: name,
          details: { model: model.id, kind, servedName: input.servedName },
        });
      });
      deps.onChanged?.();
      return viewOf(name);
    },

    async deleteModel(name: string, model: string, kind = "chat"): Promise<OwnProviderView> {
      await existing(name);
      const found = await deps.findModel(model);
      await audited.transaction(async (q, record) => {
        if (!found || !(await createOwnProvidersTable(q).deleteModel(name, found.id, checkKind(kind)))) {
          throw new NotFoundError(
            `Provider ${name} does not serve ${model.slice(0, 100)} for ${kind.slice(0, 20)}.`,
          );
        }
        await record({
          action: "provider.model-unmap",
          namespace: null,
          targetType: "provider",
          target: name,
          details: { model: found.id, kind },
        });
      });
      deps.onChanged?.();
      return viewOf(name);
    },

    /** Every configured offer (prices, context length) of hosted and own providers. */
    listOffers: (): Promise<RouterOffer[]> => offers.list(),

    /**
     * Sets what `/v1/models` tells of a provider's offer for a model, and what `:cheapest` orders by: prices
     * in USD per million tokens, the context length in tokens. The provider is a hosted one or an own one.
     */
    async putOffer(
      provider: string,
      input: { model: string; inputPrice?: number; outputPrice?: number; contextLength?: number },
    ): Promise<RouterOffer> {
      if (!isInferenceProvider(provider) && !(await table.get(provider))) {
        throw new NotFoundError(`"${provider.slice(0, 60)}" is neither a hosted provider nor an own one.`);
      }
      const model = await deps.findModel(input.model);
      if (!model) throw new NotFoundError(`Model ${input.model.slice(0, 100)} does not exist on this hub.`);
      checkOfferFigures(input);
      const context = input.contextLength;
      const offer: RouterOffer = {
        provider,
        modelId: model.id,
        inputPrice: input.inputPrice ?? null,
        outputPrice: input.outputPrice ?? null,
        contextLength: context ?? null,
        updatedAt: now(),
      };
      await audited.transaction(async (q, record) => {
        await createRouterOffersTable(q).put(offer);
        const { inputPrice, outputPrice, contextLength } = offer;
        await record({
          action: "provider.price-set",
          namespace: null,
          targetType: "provider",
          target: provider,
          details: { model: model.id, inputPrice, outputPrice, contextLength },
        });
      });
      deps.onChanged?.();
      return offer;
    },

    async deleteOffer(provider: string, model: string): Promise<void> {
      const found = await deps.findModel(model);
      await audited.transaction(async (q, record) => {
        if (!found || !(await createRouterOffersTable(q).delete(provider, found.id))) {
          throw new NotFoundError(
            `No offer of ${provider.slice(0, 60)} for ${model.slice(0, 100)} is configured.`,
          );
        }
        await record({
          action: "provider.price-delete",
          namespace: null,
          targetType: "provider",
          target: provider,
          details: { model: found.id },
        });
      });
      deps.onChanged?.();
    },
  };
}

export type OwnProvidersService = ReturnType<typeof ownProvidersService>;
