import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { getGlobalDispatcher } from "undici";
import { accountsService } from "../accounts/accounts-service.js";
import { orgNamesOf } from "../accounts/org-names.js";
import { REPO_TYPES, type RepoType } from "../accounts/types.js";
import { adminOperations } from "../admin/admin-operations.js";
import type { AuditedTransactions } from "../audit/audit-log.js";
import { auditedTransactions, createAuditRecorder, recordDone } from "../audit/audit-service.js";
import { ANONYMOUS } from "../auth/actor.js";
import { catalogueService } from "../catalogue/catalogue-service.js";
import { HubError, InvalidInputError } from "../errors.js";
import { silentLogger } from "../logger.js";
import { evictionEntry } from "../mirror/mirror-admin-routes.js";
import type { EvictionReport } from "../mirror/mirror-cache.js";
import { MIRROR_USAGE, type MirrorCommandContext, runMirrorCommand } from "../mirror/mirror-commands.js";
import { collectBlobGarbage } from "../repos/blob-gc.js";
import { repoUrl } from "../repos/read-routes.js";
import { createRepoService } from "../repos/repo-service.js";
import { DEFAULT_LOCAL_MAX_MODEL_BYTES } from "../router/local-provider.js";
import { localProviderService } from "../router/local-provider-service.js";
import { orgOwnProvidersService } from "../router/org-own-providers-service.js";
import { orgProviderAgent } from "../router/org-provider-target.js";
import { noSecretBox, type SecretBox } from "../router/own-provider-secrets.js";
import { createOwnProvidersRegistry } from "../router/own-providers-registry.js";
import { ownProvidersService } from "../router/own-providers-service.js";
import { usageSince } from "../router/usage-query.js";
import { usageService } from "../router/usage-service.js";
import type { BlobStore } from "../storage/blob-store.js";
import { copyDatabase } from "../store/database-copy.js";
import { isPostgresUrl, openStore, type Store } from "../store/store.js";

export const ADMIN_USAGE = `Usage: npm run admin -w apps/hub -- <command> [options]

Accounts
  users:create <name> [--admin] [--password-stdin] [--fullname <text>] [--email <address>]
  users:list                                   list users (never passwords)
  users:disable <name> | users:enable <name>   a disabled user's sessions and tokens stop working
  users:set-admin <name> [--revoke]            make (or unmake) a site administrator
  users:set-password <name> --password-stdin   set a password (signs the user out everywhere)
  orgs:create <name> --owner <user> [--fullname <text>]
  orgs:add-member <org> <user> --role read|write|admin    add a member or change their role
  orgs:remove-member <org> <user>
  orgs:members <org>
  tokens:create --user <name> --role read|write [--name <label>] [--expires-at <ISO date>]
                                               prints only the hf_ token (shown this once)
  tokens:list [--user <name>]                  list tokens (never the tokens themselves)
  tokens:revoke --id <id>                      revoke a token
  invites:create [--days <1-90>]               prints a sign-up invite link (SIGNUP_POLICY=invite), single use

Catalogue
  models:put --file <record.json>              create or replace a model (public API format)
  models:delete --id <owner/name>              delete a model and its mappings
  mappings:set --model <owner/name> --provider <p> --task <t> --status live|staging --provider-id <id>
  mappings:delete --model <owner/name> --provider <p>
  import --file <file.json>                    import records (see apps/hub/README.md)
  usage [--token-id <id>] [--by user|org] [--since <ISO date>]
                                               router usage per token, provider and model; or per user/org

Own inference providers (OpenAI-compatible servers behind /v1; apps/hub/README.md)
  providers:add <name> --base-url <url> [--api-key-stdin | --api-key-env OWN_PROVIDER_KEY_<X>]
                [--health-path </health>] [--headers-timeout-ms <n>] [--idle-timeout-ms <n>]
                [--no-hosted-failover]         add or replace one (the key is read from standard input and
                                               stored encrypted; a replaced provider keeps its key and models)
  providers:list                               each with its models, masked key and health (checked now)
  providers:remove <name>
  providers:map <name> --model <owner/name> --served-name <server's name> [--kind chat|embeddings]
  providers:unmap <name> --model <owner/name> [--kind chat|embeddings]
  providers:price <provider> --model <owner/name> [--input-price <USD per 1M>] [--output-price <USD per 1M>]
      [--context-length <tokens>]                what /v1/models tells of a hosted or own provider's offer
  providers:unprice <provider> --model <owner/name>
  org-providers:list <org>                     an organization's own providers (its admins manage them
                                               through /api/organizations/<org>/providers), health checked now
  org-providers:remove <org> <name>            remove one (e.g. a server the site will not call)
  org-providers:price <org> <name> --model <owner/name> [--input-price <USD per 1M>]
      [--output-price <USD per 1M>] [--context-length <tokens>]
                                               what /v1/models tells the org's members of its offer
  org-providers:unprice <org> <name> --model <owner/name>

Built-in llama.cpp provider (LOCAL_PROVIDER=on; docs/decisions/local-provider.md)
  local:enable <owner/name> --quant <Q4_K_M|F16|...>
                                               run the repository's GGUF file of that quantization (at main)
  local:disable <owner/name> --quant <quantization>
  local:list

Repositories
  repos:create <id> [--type model|dataset|space] [--private]
                                               create a repository as the site; a model may have a
                                               single-segment legacy id (gpt2) that users cannot create

Storage
  blobs:gc [--dry-run] [--grace-hours <n>]     remove blobs no commit or upload needs any more (deleted
                                               repositories, abandoned uploads); blobs stored in the last
                                               <n> hours (default 25, longer than an upload URL lives) stay

Scanning (docs/decisions/scanning.md)
  scan:status                                  the scan queue: waiting, pending, scanning, done; unsafe
  scan:rescan                                  queue every scanned content again (the hub's workers scan it);
                                               files never queued are found at the hub's start and by
                                               POST /api/admin/scanning/rescan

Database
  db:copy --to <postgres://...>                copy every row of this hub's database (SQLite in DATA_DIR) into
                                               a new, empty PostgreSQL database; then start the hub with
                                               DATABASE_URL set to it

${MIRROR_USAGE}`;

const OPTIONS = {
  quant: { type: "string" },
  name: { type: "string" },
  id: { type: "string" },
  file: { type: "string" },
  model: { type: "string" },
  provider: { type: "string" },
  task: { type: "string" },
  status: { type: "string" },
  "provider-id": { type: "string" },
  "token-id": { type: "string" },
  user: { type: "string" },
  role: { type: "string" },
  owner: { type: "string" },
  fullname: { type: "string" },
  email: { type: "string" },
  "expires-at": { type: "string" },
  days: { type: "string" },
  by: { type: "string" },
  since: { type: "string" },
  admin: { type: "boolean" },
  revoke: { type: "boolean" },
  "password-stdin": { type: "boolean" },
  "dry-run": { type: "boolean" },
  "grace-hours": { type: "string" },
  type: { type: "string" },
  private: { type: "boolean" },
  to: { type: "string" },
  revision: { type: "string" },
  all: { type: "boolean" },
  "base-url": { type: "string" },
  "api-key-stdin": { type: "boolean" },
  "api-key-env": { type: "string" },
  "health-path": { type: "string" },
  "headers-timeout-ms": { type: "string" },
  "idle-timeout-ms": { type: "string" },
  "no-hosted-failover": { type: "boolean" },
  "served-name": { type: "string" },
  "input-price": { type: "string" },
  "output-price": { type: "string" },
  "context-length": { type: "string" },
  kind: { type: "string" },
} as const;

type Values = Record<string, string | boolean | undefined>;

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value === "")
    throw new InvalidInputError(`Missing --${name}.\n\n${ADMIN_USAGE}`);
  return value;
}

function positional(positionals: string[], index: number, what: string): string {
  const value = positionals[index];
  if (!value) throw new InvalidInputError(`Missing <${what}>.\n\n${ADMIN_USAGE}`);
  return value;
}

function integer(raw: string, name: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new InvalidInputError(`--${name} must be a positive integer.`);
  return Number(raw);
}

/** `--input-price`, `--output-price`, `--context-length` (of `providers:price` and `org-providers:price`). */
function offerFigures(values: Values): { inputPrice?: number; outputPrice?: number; contextLength?: number } {
  const optional = (name: string) =>
    typeof values[name] === "string" ? (values[name] as string) : undefined;
  const price = (name: string) => {
    const raw = optional(name);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(value))
      throw new InvalidInputError(`--${name} must be a number.`);
    return value;
  };
  const context = optional("context-length");
  return {
    inputPrice: price("input-price"),
    outputPrice: price("output-price"),
    contextLength: context === undefined ? undefined : integer(context, "context-length"),
  };
}

/** What a command prints: plain text as it is (a token, for scripts), anything else as JSON. */
export type AdminOutput = { text: string } | { json: unknown };

export interface AdminIo {
  /** Standard input, read whole (for --password-stdin). */
  readStdin(): Promise<string>;
  /** Where users reach the hub, for the links commands print (PUBLIC_URL, or the listening address). */
  publicUrl?: string;
  /** The hub's blob store (for blobs:gc). */
  openBlobs?(): Promise<BlobStore>;
  /** The mirror's cache cap and its pull-through service (mirror:* commands), when UPSTREAM_URL is set. */
  mirror?: Pick<MirrorCommandContext, "maxCacheBytes" | "pull">;
  /** What own providers' keys are sealed with: the hub's secrets key (SECRETS_KEY or DATA_DIR/secrets.key). */
  ownProviderSecrets?: () => SecretBox;
}

/**
 * Runs one admin command against the store. The same operations, with the same validation, as the admin
 * API. Throws a HubError with a message for the person at the terminal on any bad input.
 */
export async function runAdminCommand(
  args: readonly string[],
  store: Store,
  knownProviders: readonly string[],
  io: AdminIo = { readStdin: async () => "" },
): Promise<AdminOutput> {
  const [command, ...rest] = args;
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw new InvalidInputError(
      `${error instanceof Error ? error.message : String(error)}\n\n${ADMIN_USAGE}`,
    );
  }
  // Account, repository, provider and catalogue changes made here are audited as the operator's, as the API's
  // are as the caller's.
  const audit = createAuditRecorder();
  const operations = adminOperations(store, knownProviders, audit);
  const accounts = accountsService(store.accounts, {
    transaction: (work) => store.transaction((tx) => work(tx.accounts, (entry) => audit.record(tx, entry))),
  });
  const usage = usageService(store);
  const json = (value: unknown): AdminOutput => ({ json: value });
  const password = async () => {
    if (!values["password-stdin"]) return undefined;
    // One line: a trailing newline from `echo` or a here-string is not part of the password.
    return (await io.readStdin()).replace(/\r?\n$/, "");
  };

  // Changes to who serves inference too, in the change's own transaction (router/provider-audit.ts).
  const providerAudit = auditedTransactions(store.db, audit);
  if (command?.startsWith("providers:")) {
    return json(await runOwnProviderCommand(command, positionals, values, store, io, providerAudit));
  }

  if (command?.startsWith("org-providers:")) {
    return json(await runOrgProviderCommand(command, positionals, values, store, io, providerAudit));
  }

  if (command?.startsWith("local:")) {
    const blobs = io.openBlobs ? await io.openBlobs() : undefined;
    if (!blobs) throw new InvalidInputError("This hub has no blob store.");
    const local = localProviderService({
      db: store.db,
      repos: () => createRepoService({ store, blobs }),
      maxModelBytes: DEFAULT_LOCAL_MAX_MODEL_BYTES,
      audited: providerAudit,
    });
    if (command === "local:list") return json(await local.list());
    const model = positional(positionals, 0, "owner/name");
    if (command === "local:enable") {
      return json(await local.enable({ model, quantization: required(values, "quant") }, "admin-cli"));
    }
    if (command === "local:disable") return json(await local.disable(model, required(values, "quant")));
  }

  if (command?.startsWith("mirror:")) {
    const done = await runMirrorCommand(command, positionals, values, {
      store,
      openBlobs: io.openBlobs,
      publicUrl: io.publicUrl,
      ...io.mirror,
    });
    // An eviction drops content on purpose; a pull, a listing or an export reads (a pull as a first read would).
    if (command === "mirror:evict") {
      await recordDone(store, audit, evictionEntry(done as EvictionReport & { evicted: string }));
    }
    return json(done);
  }

  switch (command) {
    case "users:create": {
      const user = await accounts.createUser({
        name: positional(positionals, 0, "name"),
        fullname: values.fullname,
        email: values.email,
        password: await password(),
        isAdmin: values.admin === true,
      });
      return json(user);
    }
    case "users:list":
      return json(await accounts.listUsers());
    case "users:disable":
    case "users:enable":
      return json(
        await accounts.setDisabled(positional(positionals, 0, "name"), command === "users:disable"),
      );
    case "users:set-admin":
      return json(await accounts.setAdmin(positional(positionals, 0, "name"), values.revoke !== true));
    case "users:set-password": {
      const secret = await password();
      if (secret === undefined)
        throw new InvalidInputError("Give the password on standard input with --password-stdin.");
      await accounts.setPassword(positional(positionals, 0, "name"), secret);
      return json({ name: positionals[0], passwordChanged: true });
    }
    case "orgs:create":
      return json(
        await accounts.createOrg({
          name: positional(positionals, 0, "name"),
          fullname: values.fullname,
          owner: required(values, "owner"),
        }),
      );
    case "orgs:add-member": {
      const { org, user, role } = await accounts.setMember(
        positional(positionals, 0, "org"),
        positional(positionals, 1, "user"),
        required(values, "role"),
      );
      return json({ org: org.name, user: user.name, role });
    }
    case "orgs:remove-member":
      await accounts.removeMember(positional(positionals, 0, "org"), positional(positionals, 1, "user"));
      return json({ org: positionals[0], user: positionals[1], removed: true });
    case "orgs:members": {
      const org = await accounts.org(positional(positionals, 0, "org"));
      const members = await accounts.members(org.id);
      return json(members.map((m) => ({ user: m.user.name, role: m.role, since: m.since })));
    }
    case "tokens:create": {
      const role = required(values, "role");
      if (role !== "read" && role !== "write") throw new InvalidInputError("--role must be read or write.");
      const issued = await accounts.createToken(required(values, "user"), {
        name: typeof values.name === "string" ? values.name : "cli",
        role,
        expiresAt: values["expires-at"],
      });
      return { text: issued.token };
    }
    case "tokens:list":
      return json(await accounts.listTokens(typeof values.user === "string" ? values.user : undefined));
    case "tokens:revoke":
      return json(await accounts.revokeToken(integer(required(values, "id"), "id")));
    case "models:put": {
      let record: unknown;
      try {
        record = JSON.parse(readFileSync(required(values, "file"), "utf8"));
      } catch (error) {
        if (HubError.isInstance(error)) throw error;
        throw new InvalidInputError(`Cannot read ${values.file}: ${(error as Error).message}`);
      }
      const { model, created } = await operations.putModel(record, "upsert");
      return json({ id: model.id, created });
    }
    case "models:delete":
      await operations.deleteModel(required(values, "id"));
      return json({ id: values.id, deleted: true });
    case "mappings:set":
      return json(
        await operations.setMapping(required(values, "model"), required(values, "provider"), {
          task: required(values, "task"),
          status: required(values, "status"),
          providerId: required(values, "provider-id"),
        }),
      );
    case "mappings:delete":
      await operations.deleteMapping(required(values, "model"), required(values, "provider"));
      return json({ model: values.model, provider: values.provider, deleted: true });
    case "import":
      return json(await operations.importFile(required(values, "file")));
    case "invites:create": {
      const days = typeof values.days === "string" ? integer(values.days, "days") : undefined;
      const invite = await accounts.createSignupInvite(null, days);
      return { text: `${io.publicUrl ?? ""}${invite.path}` };
    }
    case "usage":
      if (values.by !== undefined) {
        if (values.by !== "user" && values.by !== "org")
          throw new InvalidInputError("--by must be user or org.");
        return json(
          await usage.byAccount(
            values.by,
            usageSince(typeof values.since === "string" ? values.since : undefined),
          ),
        );
      }
      return json(
        await usage.summary(
          values["token-id"] ? integer(required(values, "token-id"), "token-id") : undefined,
        ),
      );
    case "repos:create": {
      if (!io.openBlobs) throw new InvalidInputError("This hub has no blob store.");
      const type = typeof values.type === "string" ? values.type : "model";
      if (!REPO_TYPES.includes(type as RepoType)) {
        throw new InvalidInputError(`--type must be one of ${REPO_TYPES.join(", ")}.`);
      }
      const repos = createRepoService({ store, blobs: await io.openBlobs(), audit });
      const repo = await repos.create({
        type: type as RepoType,
        id: positional(positionals, 0, "id"),
        private: values.private === true,
        author: "admin",
        legacy: true,
      });
      return json({ id: repo.id, type: repo.type, url: repoUrl(io.publicUrl ?? "", repo) });
    }
    case "blobs:gc": {
      if (!io.openBlobs) throw new InvalidInputError("This hub has no blob store.");
      const hours = values["grace-hours"];
      const dryRun = values["dry-run"] === true;
      const report = await collectBlobGarbage({
        store,
        blobs: await io.openBlobs(),
        dryRun,
        ...(typeof hours === "string" ? { graceMs: integer(hours, "grace-hours") * 3_600_000 } : {}),
      });
      // A dry run changes nothing: no entry.
      if (!dryRun) {
        const { deleted, bytesFreed, prunedUploads } = report;
        await recordDone(store, audit, {
          action: "blobs.gc",
          namespace: null,
          targetType: "site",
          target: null,
          details: { deleted, bytesFreed, prunedUploads },
        });
      }
      return json(report);
    }
    case "db:copy": {
      const to = required(values, "to");
      // Never echo the URL: it holds the database password.
      if (!isPostgresUrl(to)) throw new InvalidInputError("--to must be a postgres:// URL.");
      const target = await openStore({ dataDir: "", databaseUrl: to });
      try {
        const tables = await copyDatabase(store.db, target.db);
        return json({ from: store.db.description, to: target.db.description, tables });
      } finally {
        await target.close();
      }
    }
    case "scan:status":
      return json(await store.scanning.counts());
    case "scan:rescan":
      // The running hub's workers take the rows up (each replica polls the queue). One statement and its entry.
      return json(
        await store.transaction(async (tx) => {
          const requeued = await tx.scanning.requeueStale(undefined);
          await audit.record(tx, {
            action: "scanning.rescan",
            namespace: null,
            targetType: "site",
            target: null,
            details: { requeued },
          });
          return { requeued };
        }),
      );
    default:
      throw new InvalidInputError(
        `${command ? `Unknown command "${command}".` : "No command given."}\n\n${ADMIN_USAGE}`,
      );
  }
}

/**
 * `org-providers:list|remove|price|unprice`: organizations' own providers, through the service their admins'
 * API uses.
 */
async function runOrgProviderCommand(
  command: string,
  positionals: string[],
  values: Values,
  store: Store,
  io: AdminIo,
  audited: AuditedTransactions,
): Promise<unknown> {
  const secrets = io.ownProviderSecrets ?? noSecretBox;
  const registry = createOwnProvidersRegistry({
    db: store.db,
    secrets,
    dispatcher: getGlobalDispatcher(),
    // Checked as the hub calls them: a private address only when the site allows it (the same variable).
    orgDispatcher: /^(1|true|yes)$/i.test(process.env.ORG_PROVIDERS_ALLOW_PRIVATE ?? "")
      ? undefined
      : orgProviderAgent(),
    orgNames: orgNamesOf(store.accounts),
    logger: silentLogger,
  });
  const catalogue = catalogueService(store, { knownProviders: [] });
  const providers = orgOwnProvidersService({
    db: store.db,
    secrets,
    async findOrg(name) {
      const found = await store.accounts.namespace(name);
      return found?.kind === "org" ? { id: found.id, name: found.name } : undefined;
    },
    findVisibleModel: (id) => catalogue.find(id),
    checkTarget: async () => {
      throw new InvalidInputError("Organizations' providers are added by their admins, through the API.");
    },
    health: (id) => registry.health(id),
    audited,
  });
  const org = positional(positionals, 0, "org");
  if (command === "org-providers:list") {
    await registry.checkAll();
    return providers.list(org);
  }
  const name = positional(positionals, 1, "name");
  switch (command) {
    case "org-providers:remove":
      await providers.delete(org, name);
      return { org, name, deleted: true };
    case "org-providers:price":
      return providers.putPrice(
        org,
        name,
        { model: required(values, "model"), ...offerFigures(values) },
        ANONYMOUS,
        "admin-cli",
      );
    case "org-providers:unprice":
      return providers.deletePrice(org, name, required(values, "model"), ANONYMOUS);
    default:
      throw new InvalidInputError(`Unknown command "${command}".\n\n${ADMIN_USAGE}`);
  }
}

/** The `providers:*` commands: own inference providers, through the service the admin API uses. */
async function runOwnProviderCommand(
  command: string,
  positionals: string[],
  values: Values,
  store: Store,
  io: AdminIo,
  audited: AuditedTransactions,
): Promise<unknown> {
  const secrets = io.ownProviderSecrets ?? noSecretBox;
  // Health as this process sees the servers (the hub checks them on its own every few seconds).
  const registry = createOwnProvidersRegistry({
    db: store.db,
    secrets,
    dispatcher: getGlobalDispatcher(),
    logger: silentLogger,
  });
  const catalogue = catalogueService(store, { knownProviders: [] });
  const providers = ownProvidersService({
    db: store.db,
    secrets,
    findModel: (id) => catalogue.find(id),
    health: (name) => registry.health(name),
    audited,
  });
  const optional = (name: string) =>
    typeof values[name] === "string" ? (values[name] as string) : undefined;
  const milliseconds = (name: string) => {
    const raw = optional(name);
    return raw === undefined ? undefined : integer(raw, name);
  };
  const kind = optional("kind");
  switch (command) {
    case "providers:add": {
      // The key only ever on standard input: a command line shows in `ps` and in shell history.
      const apiKey = values["api-key-stdin"] ? (await io.readStdin()).replace(/\r?\n$/, "") : undefined;
      const { provider, created } = await providers.put(positional(positionals, 0, "name"), {
        baseUrl: required(values, "base-url"),
        apiKey,
        apiKeyEnv: optional("api-key-env"),
        healthPath: optional("health-path"),
        headersTimeoutMs: milliseconds("headers-timeout-ms"),
        idleTimeoutMs: milliseconds("idle-timeout-ms"),
        hostedFailover: values["no-hosted-failover"] !== true,
      });
      return { ...provider, created };
    }
    case "providers:list":
      await registry.checkAll();
      return providers.list();
    case "providers:remove":
      await providers.delete(positional(positionals, 0, "name"));
      return { name: positionals[0], deleted: true };
    case "providers:map":
      return providers.putModel(positional(positionals, 0, "name"), {
        model: required(values, "model"),
        servedName: required(values, "served-name"),
        kind,
      });
    case "providers:unmap":
      return providers.deleteModel(positional(positionals, 0, "name"), required(values, "model"), kind);
    case "providers:price":
      return providers.putOffer(positional(positionals, 0, "provider"), {
        model: required(values, "model"),
        ...offerFigures(values),
      });
    case "providers:unprice":
      await providers.deleteOffer(positional(positionals, 0, "provider"), required(values, "model"));
      return { provider: positionals[0], model: values.model, deleted: true };
    default:
      throw new InvalidInputError(`Unknown command "${command}".\n\n${ADMIN_USAGE}`);
  }
}
