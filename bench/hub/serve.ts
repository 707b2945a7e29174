/**
 * One server of the hub benchmark, in its own process so that the load generator does not share its event
 * loop: `serve.ts sim` (provider-sim) or `serve.ts pipe <simUrl>` (the floor: the least a node:http proxy
 * can do, see pipe-proxy.ts). The hub is started as `npm start` starts it (../npm-start-hub.ts). Prints `{"url": ...}` on one line, then serves until SIGTERM.
 */
import { startProviderSim } from "@modelhub/provider-sim";
import { startPipeProxy } from "./pipe-proxy.js";

const [role, simUrl] = process.argv.slice(2);

async function main(): Promise<() => Promise<void>> {
  if (role === "sim") {
    // 32 events per stream by default: the hub does not forward the benchmark's x-sim-stream-chunks header.
    const sim = await startProviderSim({ requestLogLimit: 100, streamChunks: 32 });
    process.stdout.write(`${JSON.stringify({ url: sim.url })}\n`);
    return () => sim.close();
  }
  if (role === "pipe" && simUrl) {
    const proxy = await startPipeProxy(simUrl);
    process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`);
    return proxy.close;
  }
  throw new Error("usage: serve.ts sim | serve.ts pipe <simUrl>");
}

const close = await main();
process.once("SIGTERM", () => {
  close().then(() => process.exit(0));
});
