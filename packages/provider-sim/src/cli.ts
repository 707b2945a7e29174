#!/usr/bin/env node
/**
 * Starts the provider simulator for offline development:
 *   node --conditions=source --import tsx packages/provider-sim/src/cli.ts --port 7070
 * Options: --host, --port, --latency-ms, --keep-alive-seconds, --stream-chunks, --stream-interval-ms, --job-steps, --no-replay,
 * --pace FIRST_TOKEN_MS:TOKENS_PER_SECOND (each a number or min-max, e.g. 150-400:30-80: a hosted model's pace).
 * Prints the URL, then one line per request. Faults: POST {url}/__sim/faults.
 */
import { parseArgs } from "node:util";
import { InvalidPaceError, parsePace, type SimPace } from "./pace.js";
import { startProviderSim } from "./server.js";

const { values } = parseArgs({
  options: {
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "7070" },
    "latency-ms": { type: "string" },
    "keep-alive-seconds": { type: "string" },
    "stream-chunks": { type: "string" },
    "stream-interval-ms": { type: "string" },
    "job-steps": { type: "string" },
    pace: { type: "string" },
    "no-replay": { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

if (values.help) {
  process.stdout.write(
    "modelhub-provider-sim [--host 127.0.0.1] [--port 7070] [--latency-ms N] [--keep-alive-seconds N] [--stream-chunks N] [--stream-interval-ms N] [--job-steps N] [--pace 150-400:30-80] [--no-replay] [--quiet]\n",
  );
  process.exit(0);
}

const optionalNumber = (value: string | undefined) => (value === undefined ? undefined : Number(value));

let pace: SimPace | undefined;
try {
  pace = values.pace === undefined ? undefined : parsePace(values.pace);
} catch (error) {
  if (!(error instanceof InvalidPaceError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}

const sim = await startProviderSim({
  host: values.host,
  port: Number(values.port),
  latencyMs: optionalNumber(values["latency-ms"]),
  keepAliveMs:
    values["keep-alive-seconds"] === undefined ? undefined : Number(values["keep-alive-seconds"]) * 1000,
  streamChunks: optionalNumber(values["stream-chunks"]),
  streamIntervalMs: optionalNumber(values["stream-interval-ms"]),
  jobSteps: optionalNumber(values["job-steps"]),
  pace,
  replay: !values["no-replay"],
  logger: {
    warn: (message, details) => process.stderr.write(`${message} ${JSON.stringify(details ?? {})}\n`),
  },
});

process.stdout.write(`${sim.url}\n`);
if (!values.quiet) {
  process.stdout.write(`providers: ${sim.providers.map((name) => `${sim.url}/${name}`).join("  ")}\n`);
  process.stdout.write(
    `hub API: ${sim.url}/api/models/{id}?expand[]=inferenceProviderMapping  admin: ${sim.url}/__sim/health\n`,
  );
}

const shutdown = () => {
  sim.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
