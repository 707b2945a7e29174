/**
 * The runtime matrix: the packages as `npm pack` ships them, in every runtime their users run them in,
 * against provider-sim on loopback. Each case names its runtime and binary; its log line gives the version
 * the runtime reported and what each check saw.
 */
import { rmSync } from "node:fs";
import type { ProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MATRIX_MODELS } from "../smoke/checks.mjs";
import { type PublishedApp, preparePublishedApp } from "./published.js";
import { RUNTIMES } from "./runtimes.js";
import { startMatrixSim } from "./sim.js";

/** What each runtime runs (smoke/checks.mjs), in order. */
const CHECKS = [
  "inference: chat",
  "inference: chat from the cached mapping",
  "inference: chat at an endpointUrl",
  "inference: chat stream",
  "inference: text-to-image",
  "inference: abort while waiting",
  "inference: abort mid-stream",
  "inference: typed errors",
  "snippets",
  "jinja",
  "tasks",
];

const SUMMARY =
  "inference (chat, cached-mapping chat, endpoint chat, stream, text-to-image, abort x2, typed error), snippets, jinja, tasks";

let sim: ProviderSim;
let app: PublishedApp;

beforeAll(async () => {
  const started = performance.now();
  app = preparePublishedApp();
  process.stdout.write(
    `runtime-matrix: ${app.packages.join(" ")} built (when stale), packed and installed in ` +
      `${Math.round(performance.now() - started)} ms\n`,
  );
  sim = await startMatrixSim();
});
afterAll(async () => {
  await sim?.close();
  if (app) rmSync(app.dir, { recursive: true, force: true });
});

describe.concurrent("the published packages in every runtime", () => {
  for (const runtime of RUNTIMES) {
    it(`${runtime.describe()}: ${SUMMARY}`, async () => {
      const unavailable = runtime.unavailable();
      if (unavailable) throw new Error(`${runtime.id} cannot run: ${unavailable}`);
      const { report, ms } = await runtime.run(app, sim.url);
      const lines = report.results.map(
        (result) => `  ${result.ok ? "ok  " : "FAIL"} ${result.name} (${result.ms} ms): ${result.detail}`,
      );
      process.stdout.write(
        `runtime-matrix ${runtime.id}: ${report.version}, ${app.packages.join(" ")}, ${Math.round(ms)} ms\n` +
          `${lines.join("\n")}\n`,
      );
      expect(report.runtime).toBe(runtime.id);
      expect(report.results.map((result) => result.name)).toEqual(CHECKS);
      expect(report.results.filter((result) => !result.ok)).toEqual([]);
      // The calls reached provider-sim from this runtime (X-HF-Bill-To names it), on each provider's path.
      const paths = sim.requests
        .filter((request) => request.headers["x-hf-bill-to"] === runtime.id)
        .map((request) => `${request.method} ${request.path}`);
      expect(paths).toEqual(
        expect.arrayContaining([
          "POST /together/v1/chat/completions",
          "POST /together/v1/images/generations",
          `POST /${MATRIX_MODELS.slowChat.provider}/inference/v1/chat/completions`,
        ]),
      );
    });
  }
});
