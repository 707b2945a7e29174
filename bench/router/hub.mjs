/**
 * The hub as `npm start` runs it, for the router benchmark: the built server (`apps/hub/dist`, under
 * `node --max-semi-space-size=64`, started by run.ts), configured from the environment by the server's own
 * `loadConfigFromEnvironment` (DATA_DIR, ADMIN_TOKEN, PORT, LOG_LEVEL, provider keys...), with its JSON log on
 * stderr as `npm start` writes it. One thing the environment cannot say: where a provider lives. So every
 * provider is sent to BENCH_PROVIDER_BASE_URL/{provider} (the provider simulator), as `startHub`'s
 * `providerBaseUrls` does for a private gateway; no simulator runs inside the hub.
 * Plain JavaScript, so that no TypeScript loader runs in the measured process. Prints `{"url": ...}`.
 *   BENCH_HUB_ROOT  the checkout whose built hub runs (default: this repository)
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = process.env.BENCH_HUB_ROOT || fileURLToPath(new URL("../../", import.meta.url));
const dist = (path) => pathToFileURL(join(root, "apps", "hub", "dist", path)).href;
const { loadConfigFromEnvironment } = await import(dist("server.js"));
const { startHub } = await import(dist("start-hub.js"));
const { createJsonLogger, writeLinesPerTurn } = await import(dist("logger.js"));
const { INFERENCE_PROVIDERS } = await import("@modelhub/inference");

const simUrl = process.env.BENCH_PROVIDER_BASE_URL;
if (!simUrl) throw new Error("BENCH_PROVIDER_BASE_URL (the provider simulator's URL) is not set.");
const config = loadConfigFromEnvironment();
const logger = createJsonLogger({
  write: writeLinesPerTurn((text) => process.stderr.write(text)),
  level: config.logLevel,
  secrets: [config.adminToken, ...Object.values(config.providerKeys)].filter(Boolean),
});
// The configuration's fields are startHub's options of the same names (as server.ts passes them).
const hub = await startHub({
  ...config,
  logger,
  webDist: existsSync(join(root, "apps", "web", "dist", "index.html"))
    ? join(root, "apps", "web", "dist")
    : undefined,
  providerBaseUrls: Object.fromEntries(INFERENCE_PROVIDERS.map((name) => [name, `${simUrl}/${name}`])),
});
process.stdout.write(`${JSON.stringify({ url: hub.url })}\n`);
process.once("SIGTERM", () => {
  hub.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
