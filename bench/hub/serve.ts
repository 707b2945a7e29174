/**
 * One server of the hub benchmark, in its own process so that the load generator does not share its event
 * loop: `serve.ts sim` (provider-sim), `serve.ts hub <simUrl> <adminToken>` (the hub, every provider sent
 * to that provider-sim) or `serve.ts pipe <simUrl>` (the floor: the least a node:http proxy can do, see
 * pipe-proxy.ts). Prints `{"url": ...}` on one line, then serves until SIGTERM.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as currentHub from "@modelhub/hub";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { startProviderSim } from "@modelhub/provider-sim";
import { startPipeProxy } from "./pipe-proxy.js";

const [role, simUrl, adminToken] = process.argv.slice(2);

async function main(): Promise<() => Promise<void>> {
  if (role === "sim") {
    const sim = await startProviderSim({ requestLogLimit: 100 });
    process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
    return () => sim.close();
  }
  if (role === "hub" && simUrl && adminToken) {
    // BENCH_HUB_MODULE: another checkout's src/index.ts (e.g. the hub before a change), for before/after runs.
    const { createJsonLogger, startHub } = (
      process.env.BENCH_HUB_MODULE ? await import(process.env.BENCH_HUB_MODULE) : currentHub
    ) as typeof currentHub;
    const dataDir = mkdtempSync(join(tmpdir(), "modelhub-bench-"));
    const hub = await startHub({
      dataDir,
      adminToken,
      // Failures only (a 5xx from the router, an unhandled error), on stderr, so that errors can be explained.
      logger: createJsonLogger({ write: (line) => process.stderr.write(`${line}\n`), level: "warn" }),
      providerBaseUrls: Object.fromEntries(
        INFERENCE_PROVIDERS.map((provider) => [provider, `${simUrl}/${provider}`]),
      ),
      // The benchmark paces provider-sim per request with x-sim-* headers (stream length, delays).
      forwardSimHeaders: true,
    });
    process.stdout.write(`${JSON.stringify({ url: hub.url })}\n`);
    return async () => {
      await hub.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  if (role === "pipe" && simUrl) {
    const proxy = await startPipeProxy(simUrl);
    process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
    return proxy.close;
  }
  throw new Error("usage: serve.ts sim | serve.ts hub <simUrl> <adminToken> | serve.ts pipe <simUrl>");
}

const close = await main();
process.once("SIGTERM", () => {
  close().then(() => process.exit(0));
});
