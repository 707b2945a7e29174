import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { adminOperations } from "../admin-operations.js";
import { HubError, InvalidInputError } from "../errors.js";
import { importCatalogue, readImportFile } from "../store/catalogue.js";
import type { Store } from "../store/store.js";

export const ADMIN_USAGE = `Usage: npm run admin -w apps/hub -- <command> [options]

  tokens:create --name <name> [--scopes inference,read]   issue a hub token (printed once)
  tokens:list                                              list tokens (never the tokens themselves)
  tokens:revoke --id <id>                                  revoke a token
  models:put --file <record.json>                          create or replace a model (public API format)
  models:delete --id <owner/name>                          delete a model and its mappings
  mappings:set --model <owner/name> --provider <p> --task <t> --status live|staging --provider-id <id>
  mappings:delete --model <owner/name> --provider <p>
  import --file <file.json>                                import records (see apps/hub/README.md)
  usage [--token-id <id>]                                  router usage per token, provider and model
`;

const OPTIONS = {
  name: { type: "string" },
  scopes: { type: "string" },
  id: { type: "string" },
  file: { type: "string" },
  model: { type: "string" },
  provider: { type: "string" },
  task: { type: "string" },
  status: { type: "string" },
  "provider-id": { type: "string" },
  "token-id": { type: "string" },
} as const;

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (value === undefined || value === "")
    throw new InvalidInputError(`Missing --${name}.\n\n${ADMIN_USAGE}`);
  return value;
}

function integer(raw: string, name: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new InvalidInputError(`--${name} must be a positive integer.`);
  return Number(raw);
}

/**
 * Runs one admin command against the store and returns what to print (JSON-serialisable). The same
 * operations, with the same validation, as the admin API.
 */
export function runAdminCommand(
  args: readonly string[],
  store: Store,
  knownProviders: readonly string[],
): unknown {
  const [command, ...rest] = args;
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({ args: [...rest], options: OPTIONS, strict: true }).values;
  } catch (error) {
    throw new InvalidInputError(
      `${error instanceof Error ? error.message : String(error)}\n\n${ADMIN_USAGE}`,
    );
  }
  const operations = adminOperations(store, knownProviders);
  switch (command) {
    case "tokens:create": {
      const scopes = values.scopes?.split(",").map((scope) => scope.trim());
      return operations.createToken({ name: required(values, "name"), ...(scopes ? { scopes } : {}) });
    }
    case "tokens:list":
      return operations.listTokens();
    case "tokens:revoke":
      return operations.revokeToken(integer(required(values, "id"), "id"));
    case "models:put": {
      let record: unknown;
      try {
        record = JSON.parse(readFileSync(required(values, "file"), "utf8"));
      } catch (error) {
        if (HubError.isInstance(error)) throw error;
        throw new InvalidInputError(`Cannot read ${values.file}: ${(error as Error).message}`);
      }
      const { model, created } = operations.putModel(record, "upsert");
      return { id: model.id, created };
    }
    case "models:delete":
      operations.deleteModel(required(values, "id"));
      return { id: values.id, deleted: true };
    case "mappings:set":
      return operations.setMapping(required(values, "model"), required(values, "provider"), {
        task: required(values, "task"),
        status: required(values, "status"),
        providerId: required(values, "provider-id"),
      });
    case "mappings:delete":
      operations.deleteMapping(required(values, "model"), required(values, "provider"));
      return { model: values.model, provider: values.provider, deleted: true };
    case "import":
      return importCatalogue(store, readImportFile(required(values, "file"), knownProviders));
    case "usage":
      return store.usage.summary(values["token-id"] ? integer(values["token-id"], "token-id") : undefined);
    default:
      throw new InvalidInputError(
        `${command ? `Unknown command "${command}".` : "No command given."}\n\n${ADMIN_USAGE}`,
      );
  }
}
