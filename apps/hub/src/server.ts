/**
 * The hub's entry point (`npm start`). The only module that reads the environment: it validates the
 * configuration once, starts the hub and shuts it down gracefully on SIGINT/SIGTERM.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { getProviderConfig, INFERENCE_PROVIDERS } from "@modelhub/inference";
import { ConfigError, type HubConfig, parseConfig } from "./config.js";
import { createJsonLogger, writeLinesPerTurn } from "./logger.js";
import { startHub } from "./start-hub.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const WEB_DIST = join(REPO_ROOT, "apps", "web", "dist");

/** Environment variable holding each provider's key. */
function providerKeyVariables(): Record<string, string> {
  return Object.fromEntries(
    INFERENCE_PROVIDERS.map((provider) => [provider, getProviderConfig(provider).apiKeyEnv]),
  );
}

/** The validated configuration from `process.env`; also used by the admin and import commands. */
export function loadConfigFromEnvironment(): HubConfig {
  return parseConfig(process.env, { repoRoot: REPO_ROOT, providerKeyVariables: providerKeyVariables() });
}

/** The directory the user ran `npm run ...` from (npm changes into the workspace), for relative file paths. */
export function invocationDirectory(): string {
  return process.env.INIT_CWD || process.cwd();
}

async function main(): Promise<void> {
  let config: HubConfig;
  try {
    config = loadConfigFromEnvironment();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const s3Credentials = config.blobStore.kind === "s3" ? config.blobStore.credentials : undefined;
  const secrets = [
    config.adminToken,
    ...Object.values(config.providerKeys),
    s3Credentials?.secretAccessKey,
    s3Credentials?.sessionToken,
    config.mirror?.upstreamToken,
    config.secretsKey,
    // Own inference providers' keys named by variable (router/own-providers-service.ts).
    ...Object.entries(process.env)
      .filter(([name]) => name.startsWith("OWN_PROVIDER_KEY_"))
      .map(([, value]) => value),
  ].filter((s): s is string => !!s);
  const logger = createJsonLogger({
    write: writeLinesPerTurn((text) => process.stderr.write(text)),
    level: config.logLevel,
    secrets,
  });
  const hub = await startHub({
    port: config.port,
    host: config.host,
    publicUrl: config.publicUrl,
    spacesPort: config.spacesPort,
    spacesUrl: config.spacesUrl,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    usageRetentionDays: config.usageRetentionDays,
    keepAliveSeconds: config.keepAliveSeconds,
    adminToken: config.adminToken,
    secretsKey: config.secretsKey,
    localProvider: config.localProvider,
    signupPolicy: config.signupPolicy,
    oidc: config.oidc,
    lfsMultipartChunkBytes: config.lfsMultipartChunkBytes,
    providerKeys: config.providerKeys,
    providerBaseUrls: config.providerBaseUrls,
    blobStore: config.blobStore,
    blobDownload: config.blobDownload,
    downloadOffload: config.downloadOffload,
    webDist: existsSync(join(WEB_DIST, "index.html")) ? WEB_DIST : undefined,
    cardImageOrigins: config.cardImageOrigins,
    mirror: config.mirror,
    scanning: config.scanning,
    webhooks: { allowPrivate: config.webhookAllowPrivate },
    orgProvidersAllowPrivate: config.orgProvidersAllowPrivate,
    rateLimits: config.rateLimits,
    auditRetentionDays: config.auditRetentionDays,
    storageQuotas: config.storageQuotas,
    logger,
  });
  logger.log("info", "hub started", {
    url: hub.url,
    publicUrl: hub.publicUrl,
    spacesUrl: hub.spacesUrl ?? "off",
    dataDir: config.dataDir,
    database: hub.store.db.description,
    blobStore:
      config.blobStore.kind === "s3"
        ? `s3://${config.blobStore.bucket}/${config.blobStore.prefix} (downloads: ${config.blobDownload})`
        : "data directory",
    models: await hub.store.models.count(),
    adminApi: config.adminToken ? "enabled" : "disabled (set ADMIN_TOKEN)",
    web: existsSync(join(WEB_DIST, "index.html")) ? WEB_DIST : "not built",
    mirror: config.mirror ? `${config.mirror.upstreamUrl} (${config.mirror.mode})` : "off (set UPSTREAM_URL)",
    webhooks: config.webhookAllowPrivate
      ? "private targets allowed (WEBHOOK_ALLOW_PRIVATE)"
      : "public targets only",
    scanning: `${config.scanning.policy}, ${config.scanning.concurrency} at a time, antivirus ${config.scanning.clamd ? "clamd" : "off (set CLAMD_SOCKET)"}`,
  });
  logger.log("info", "router", {
    withKeys: hub.routing.provider,
    providerSim: hub.routing["provider-sim"],
    providerSimUrl: hub.providerSimUrl,
  });
  if (hub.routing["provider-sim"].length > 0) {
    process.stdout.write(
      `Router: ${hub.routing["provider-sim"].length} provider(s) without a key are served by provider-sim (${hub.providerSimUrl}): ${hub.routing["provider-sim"].join(", ")}\n`,
    );
  }
  if (hub.routing.provider.length > 0) {
    process.stdout.write(`Router: real providers (key configured): ${hub.routing.provider.join(", ")}\n`);
  }
  process.stdout.write(`Modelhub is running at ${hub.url}\n`);
  if ((await hub.store.accounts.users.count()) === 0) {
    process.stdout.write(
      "No accounts yet: anonymous visitors read the public catalogue. Make the first administrator with\n" +
        "  npm run admin -w apps/hub -- users:create NAME --admin --password-stdin\n" +
        "then a token for the API and the router with\n" +
        "  npm run admin -w apps/hub -- tokens:create --user NAME --role write\n",
    );
  }

  const shutdown = (signal: string) => {
    logger.log("info", "shutting down", { signal });
    hub.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `The hub failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
