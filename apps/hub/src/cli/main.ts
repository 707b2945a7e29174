/**
 * Entry of `npm run admin -w apps/hub -- <command>` and `npm run import -w apps/hub -- <file>`: opens the
 * store of the configured DATA_DIR (the server may be running: SQLite's WAL mode lets both write).
 */
import { resolve } from "node:path";
import { text } from "node:stream/consumers";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { HubError } from "../errors.js";
import { cliMirrorPull } from "../mirror/mirror-assembly.js";
import { createSecretBox, loadSecretsKey } from "../router/own-provider-secrets.js";
import { invocationDirectory, loadConfigFromEnvironment } from "../server.js";
import { openBlobStore } from "../storage/blob-store-config.js";
import { openStore } from "../store/store.js";
import { runAdminCommand } from "./admin-command.js";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  // `npm run import -- file.json` is short for `admin import --file file.json`.
  const command = args[0] === "--import" ? ["import", "--file", ...args.slice(1)] : args;
  // File options are relative to where the user typed the command, not to apps/hub.
  for (let i = 0; i < command.length - 1; i++) {
    if (command[i] === "--file") command[i + 1] = resolve(invocationDirectory(), command[i + 1]!);
  }
  // So is a mirror bundle's path (mirror:export <file> ..., mirror:import <file>).
  if ((command[0] === "mirror:export" || command[0] === "mirror:import") && command[1]) {
    command[1] = resolve(invocationDirectory(), command[1]);
  }
  const config = loadConfigFromEnvironment();
  const store = await openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    usageRetentionDays: config.usageRetentionDays,
  });
  try {
    const output = await runAdminCommand(command, store, INFERENCE_PROVIDERS, {
      readStdin: () => text(process.stdin),
      publicUrl: config.publicUrl ?? `http://${config.host}:${config.port}`,
      ownProviderSecrets: () => createSecretBox(loadSecretsKey(config.secretsKey, config.dataDir)),
      openBlobs: () => openBlobStore(config.blobStore, config.dataDir),
      mirror: {
        maxCacheBytes: config.mirror?.maxCacheSize,
        pull: config.mirror
          ? cliMirrorPull({
              store,
              openBlobs: () => openBlobStore(config.blobStore, config.dataDir),
              settings: config.mirror,
              dataDir: config.dataDir,
            })
          : undefined,
      },
    });
    process.stdout.write("text" in output ? `${output.text}\n` : `${JSON.stringify(output.json, null, 2)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${HubError.isInstance(error) ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

process.exitCode = await main();
