import type { AuditEntryInput, AuditedTransactions } from "../audit/audit-log.js";
import type { Actor } from "../auth/actor.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.js";
import type { Queryable } from "../store/database.js";
import {
  createOrgOwnProvidersTable,
  type OrgOwnModelRow,
  type OrgOwnProviderRow,
} from "./org-own-providers-table.js";
import { createOrgProviderPricesTable, type OrgProviderPrice } from "./org-provider-prices-table.js";
import {
  checkBaseUrl,
  checkKind,
  checkModelId,
  checkName,
  checkOfferFigures,
  checkServedName,
  connectionSettings,
  type OfferFigures,
  storedKey,
} from "./own-provider-checks.js";
import type { SecretBox } from "./own-provider-secrets.js";
import type { OwnProviderHealth } from "./own-providers-service.js";
import type { OwnModelKind } from "./own-providers-table.js";
import { providerPutEntry, unaudited } from "./provider-audit.js";

/** An organization as the service needs it: the id its rows hold, the name the router shows. */
export interface ProviderOrg {
  id: number;
  name: string;
}

/** What an organization's admin gives for one of its providers (no key variable: see the migration). */
export interface OrgOwnProviderInput {
  baseUrl: string;
  apiKey?: string;
  healthPath?: string;
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
  hostedFailover?: boolean;
}

/** An organization's provider as answers show it: the key masked, never sealed or clear. */
export interface OrgOwnProviderView {
  /** What callers write after the model's colon (`owner/name:acme/gpu`), and what usage records name. */
  id: string;
  name: string;
  baseUrl: string;
  apiKey: string | null;
  healthPath: string;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  hostedFailover: boolean;
  models: { model: string; kind: OwnModelKind; servedName: string }[];
  /** What its admin set per model it serves: what `/v1/models` tells members and `:cheapest` orders by. */
  prices: OrgProviderPriceView[];
  health: OwnProviderHealth;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** A price as answers show it: USD per million tokens, the context length in tokens; null when not set. */
export interface OrgProviderPriceView {
  model: string;
  inputPrice: number | null;
  outputPrice: number | null;
  contextLength: number | null;
  updatedBy: string;
  updatedAt: string;
}

/**
 * The most providers one organization may have. Every provider is health-checked every period by every hub
 * process, wherever its admin points it: without a bound, one user (anyone may make an organization) could
 * have the hub call a server of their choosing thousands of times a period.
 */
export const MAX_PROVIDERS_PER_ORG = 20;

/** The router's name of an organization's provider: the organization's name, a slash, the provider's. */
export function orgProviderId(orgName: string, name: string): string {
  return `${orgName}/${name}`;
}

/** What an organization's sealed keys are bound to (a key copied onto another row does not open). */
export function orgProviderSealName(orgId: number, name: string): string {
  return `org:${orgId}/${name}`;
}

export interface OrgOwnProvidersServiceDeps {
  db: Queryable;
  secrets: () => SecretBox;
  /** The organization of a name (any letter case); undefined when there is none (or it is a user). */
  findOrg(name: string): Promise<ProviderOrg | undefined>;
  /**
   * A model the acting admin may see, for its exact id; undefined when none or hidden from them (a private
   * model of another namespace answers exactly as a missing one).
   */
  findVisibleModel(id: string, actor: Actor): Promise<{ id: string } | undefined>;
  /**
   * Throws when the base URL's host may not be called on an organization's behalf (loopback, private or
   * link-local addresses, the hub itself) unless the site allows it (ORG_PROVIDERS_ALLOW_PRIVATE).
   */
  checkTarget(url: string): Promise<void>;
  health?(id: string): OwnProviderHealth;
  onChanged?(): void;
  /** Writes each change with its audit log entry (the organization's: its admins read it); none: unaudited. */
  audited?: AuditedTransactions;
  now?: () => Date;
}

/**
 * An organization's own providers, as its admins manage them (`/api/organizations/{org}/providers`): the
 * checks of site providers (own-provider-checks.ts), plus the target check a user-given URL needs. Callers
 * are authorized by the routes before anything here runs.
 */
export function orgOwnProvidersService(deps: OrgOwnProvidersServiceDeps) {
  const table = createOrgOwnProvidersTable(deps.db);
  const pricesTable = createOrgProviderPricesTable(deps.db);
  const audited = deps.audited ?? unaudited(deps.db);
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  const unknownHealth: OwnProviderHealth = { status: "unknown", checkedAt: null, error: null };

  async function orgOf(name: string): Promise<ProviderOrg> {
    const org = await deps.findOrg(name);
    if (!org) throw new NotFoundError(`No organization is named "${name.slice(0, 60)}".`);
    return org;
  }

  function view(
    org: ProviderOrg,
    row: OrgOwnProviderRow,
    models: OrgOwnModelRow[],
    prices: OrgProviderPrice[],
  ): OrgOwnProviderView {
    const id = orgProviderId(org.name, row.name);
    return {
      id,
      name: row.name,
      baseUrl: row.baseUrl,
      apiKey: row.apiKeyHint,
      healthPath: row.healthPath,
      headersTimeoutMs: row.headersTimeoutMs,
      idleTimeoutMs: row.idleTimeoutMs,
      hostedFailover: row.hostedFailover,
      models: models
        .filter((model) => model.provider === row.name)
        .map(({ modelId, kind, servedName }) => ({ model: modelId, kind, servedName })),
      prices: prices
        .filter((price) => price.provider === row.name)
        .map(({ modelId, inputPrice, outputPrice, contextLength, updatedBy, updatedAt }) => ({
          model: modelId,
          inputPrice,
          outputPrice,
          contextLength,
          updatedBy,
          updatedAt,
        })),
      health: deps.health?.(id) ?? unknownHealth,
      createdBy: row.createdBy,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  /** An entry about one of the organization's providers, in its log. */
  function entry(
    org: ProviderOrg,
    name: string,
    action: AuditEntryInput["action"],
    details?: Record<string, unknown>,
  ): AuditEntryInput {
    return {
      action,
      namespace: org.name,
      targetType: "provider",
      target: orgProviderId(org.name, name),
      details,
    };
  }

  async function existing(org: ProviderOrg, name: string): Promise<OrgOwnProviderRow> {
    const row = await table.get(org.id, name);
    if (!row) {
      throw new NotFoundError(`${org.name} has no inference provider named "${name.slice(0, 60)}".`);
    }
    return row;
  }

  async function viewOf(org: ProviderOrg, name: string): Promise<OrgOwnProviderView> {
    return view(org, await existing(org, name), await table.models(org.id), await pricesTable.list(org.id));
  }

  return {
    async list(orgName: string): Promise<OrgOwnProviderView[]> {
      const org = await orgOf(orgName);
      const [rows, models, prices] = await Promise.all([
        table.list(org.id),
        table.models(org.id),
        pricesTable.list(org.id),
      ]);
      return rows.map((row) => view(org, row, models, prices));
    },

    async get(orgName: string, name: string): Promise<OrgOwnProviderView> {
      return viewOf(await orgOf(orgName), name);
    },

    /** Creates or replaces a provider; a replaced one keeps its models, and its key when none is given. */
    async put(
      orgName: string,
      name: string,
      input: OrgOwnProviderInput,
      by: string,
    ): Promise<{ provider: OrgOwnProviderView; created: boolean }> {
      const org = await orgOf(orgName);
      checkName(name);
      const baseUrl = checkBaseUrl(input.baseUrl);
      await deps.checkTarget(baseUrl);
      // What was there is read under the organization's providers' lock, in the write's transaction: read
      // before it, two first puts of one name would both be logged as its creation, and two puts of new names
      // could both pass the limit.
      const created = await audited.transaction(
        async (q, record) => {
          await q.lock(`org-providers:${org.id}`);
          const inTx = createOrgOwnProvidersTable(q);
          const previous = await inTx.get(org.id, name);
          if (previous?.apiKeySealed && input.apiKey === undefined) {
            // Kept, the key would go (with the next health check) to a server it was not given for, chosen by
            // whoever edits the provider: any of the organization's admins, none of whom is ever shown the key.
            const from = new URL(previous.baseUrl).origin;
            const to = new URL(baseUrl).origin;
            if (from !== to) {
              throw new InvalidInputError(
                `${name}'s key was given for ${from}: give the key for ${to} (apiKey) to move it there, or ` +
                  "remove the provider and add it again. A stored key is never sent to another server.",
              );
            }
          }
          if (!previous && (await inTx.list(org.id)).length >= MAX_PROVIDERS_PER_ORG) {
            throw new ConflictError(
              `${org.name} has ${MAX_PROVIDERS_PER_ORG} inference providers, the most an organization may ` +
                "have: remove one first, or replace one by putting it again under its name.",
            );
          }
          const at = now();
          const row: OrgOwnProviderRow = {
            orgId: org.id,
            name,
            baseUrl,
            ...storedKey(input.apiKey, previous, input.apiKey === undefined, (key) =>
              deps.secrets().seal(orgProviderSealName(org.id, name), key),
            ),
            ...connectionSettings(input, baseUrl),
            createdBy: previous?.createdBy ?? by,
            createdAt: previous?.createdAt ?? at,
            updatedAt: at,
          };
          await inTx.put(row);
          const { action, details } = providerPutEntry(previous, row, input.apiKey !== undefined);
          await record(entry(org, name, action, details));
          return previous === undefined;
        },
        { immediate: true },
      );
      deps.onChanged?.();
      return { provider: await viewOf(org, name), created };
    },

    async delete(orgName: string, name: string): Promise<void> {
      const org = await orgOf(orgName);
      await audited.transaction(async (q, record) => {
        if (!(await createOrgOwnProvidersTable(q).delete(org.id, name))) {
          throw new NotFoundError(`${org.name} has no inference provider named "${name.slice(0, 60)}".`);
        }
        await record(entry(org, name, "provider.delete"));
      });
      deps.onChanged?.();
    },

    /** Maps a hub model the admin may see to the name the organization's server knows it by. */
    async putModel(
      orgName: string,
      name: string,
      input: { model: string; kind?: string; servedName: string },
      actor: Actor,
    ): Promise<OrgOwnProviderView> {
      const org = await orgOf(orgName);
      await existing(org, name);
      const kind = checkKind(input.kind ?? "chat");
      checkModelId(input.model);
      checkServedName(input.servedName);
      const model = await deps.findVisibleModel(input.model, actor);
      if (!model) throw new NotFoundError(`Model ${input.model} does not exist on this hub.`);
      await audited.transaction(async (q, record) => {
        await createOrgOwnProvidersTable(q).putModel({
          orgId: org.id,
          provider: name,
          modelId: model.id,
          kind,
          servedName: input.servedName,
        });
        await record(
          entry(org, name, "provider.model-map", { model: model.id, kind, servedName: input.servedName }),
        );
      });
      deps.onChanged?.();
      return viewOf(org, name);
    },

    async deleteModel(
      orgName: string,
      name: string,
      model: { model: string; kind?: string },
      actor: Actor,
    ): Promise<OrgOwnProviderView> {
      const kind = model.kind ?? "chat";
      const org = await orgOf(orgName);
      await existing(org, name);
      const checkedKind = checkKind(kind);
      const found = await deps.findVisibleModel(model.model, actor);
      await audited.transaction(async (q, record) => {
        const inTx = createOrgOwnProvidersTable(q);
        if (!found || !(await inTx.deleteModel(org.id, name, found.id, checkedKind))) {
          throw new NotFoundError(
            `Provider ${name} does not serve ${model.model.slice(0, 100)} for ${kind.slice(0, 20)}.`,
          );
        }
        // A price outlives no mapping of its model: it would show again, stale, once the model is mapped anew.
        const stillServed = (await inTx.models(org.id)).some(
          (row) => row.provider === name && row.modelId === found.id,
        );
        const priceDropped =
          !stillServed && (await createOrgProviderPricesTable(q).delete(org.id, name, found.id));
        await record(
          entry(org, name, "provider.model-unmap", {
            model: found.id,
            kind: checkedKind,
            ...(priceDropped ? { priceDeleted: true } : {}),
          }),
        );
      });
      deps.onChanged?.();
      return viewOf(org, name);
    },

    /**
     * Sets what `/v1/models` tells the organization's members of its provider's offer for a model it serves,
     * and what `:cheapest` orders by: prices in USD per million tokens, the context length in tokens. A figure
     * left out is not set (the whole price is replaced).
     */
    async putPrice(
      orgName: string,
      name: string,
      input: OfferFigures & { model: string },
      actor: Actor,
      by: string,
    ): Promise<OrgOwnProviderView> {
      const org = await orgOf(orgName);
      await existing(org, name);
      checkModelId(input.model);
      checkOfferFigures(input);
      const model = await deps.findVisibleModel(input.model, actor);
      const served =
        model &&
        (await table.models(org.id)).some((row) => row.provider === name && row.modelId === model.id);
      if (!model || !served) {
        throw new NotFoundError(
          `Provider ${name} does not serve ${input.model.slice(0, 100)}: map the model to it first.`,
        );
      }
      const price: OrgProviderPrice = {
        orgId: org.id,
        provider: name,
        modelId: model.id,
        inputPrice: input.inputPrice ?? null,
        outputPrice: input.outputPrice ?? null,
        contextLength: input.contextLength ?? null,
        updatedBy: by,
        updatedAt: now(),
      };
      await audited.transaction(async (q, record) => {
        await createOrgProviderPricesTable(q).put(price);
        const { inputPrice, outputPrice, contextLength } = price;
        await record(
          entry(org, name, "provider.price-set", { model: model.id, inputPrice, outputPrice, contextLength }),
        );
      });
      deps.onChanged?.();
      return viewOf(org, name);
    },

    async deletePrice(
      orgName: string,
      name: string,
      model: string,
      actor: Actor,
    ): Promise<OrgOwnProviderView> {
      const org = await orgOf(orgName);
      await existing(org, name);
      const found = await deps.findVisibleModel(model, actor);
      await audited.transaction(async (q, record) => {
        if (!found || !(await createOrgProviderPricesTable(q).delete(org.id, name, found.id))) {
          throw new NotFoundError(`No price of ${name} for ${model.slice(0, 100)} is set.`);
        }
        await record(entry(org, name, "provider.price-delete", { model: found.id }));
      });
      deps.onChanged?.();
      return viewOf(org, name);
    },
  };
}

export type OrgOwnProvidersService = ReturnType<typeof orgOwnProvidersService>;
