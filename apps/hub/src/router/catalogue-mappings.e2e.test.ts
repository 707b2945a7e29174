import { join } from "node:path";
import { type InferenceProvider, type InferenceTask, providerTaskSupported } from "@modelhub/inference";
import { TASK_FUNCTIONS, TASK_SAMPLES, type TaskFunction } from "@modelhub/inference/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { ProviderMapping } from "../catalogue/mapping-record.js";
import type { RunningHub } from "../start-hub.js";
import { grantGatedModelsToEveryone } from "./__fixtures__/gated-grants.js";

/**
 * Every provider mapping the built-in catalogue offers works end to end: the hub as `npm start` runs it
 * (built-in catalogue, built-in provider-sim), its snippets endpoint, and the inference client calling
 * through the hub's router, polled jobs (fal-ai queue, Replicate, Black Forest Labs, WaveSpeed, Novita
 * video) included. A mapping the client cannot serve is not offered at all.
 */
let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;
let token: string;
const offered: Array<{ model: string; provider: string; mapping: ProviderMapping }> = [];

beforeAll(async () => {
  temp = makeTempDir();
  hub = await startTestHub({ dataDir: join(temp.dir, "data") });
  token = await userToken(hub.store, "walk", "read");
  // The catalogue's gated models need a grant for inference, as for their files.
  await grantGatedModelsToEveryone(hub.store);
  let cursor: string | null = `${hub.url}/api/models?expand[]=inferenceProviderMapping&limit=1000`;
  while (cursor) {
    const response: Response = await fetch(cursor);
    const models = (await response.json()) as Array<{
      id: string;
      inferenceProviderMapping?: Record<string, ProviderMapping>;
    }>;
    for (const model of models) {
      for (const [provider, mapping] of Object.entries(model.inferenceProviderMapping ?? {})) {
        offered.push({ model: model.id, provider, mapping });
      }
    }
    cursor = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1] ?? null;
  }
}, 60_000);
afterAll(async () => {
  await hub?.close();
  temp?.remove();
});

/** The kind of media a generation task answers with (a video task answered with an image is a failure). */
const MEDIA_OF_TASK: Partial<Record<string, string>> = {
  "text-to-image": "image",
  "image-to-image": "image",
  "text-to-video": "video",
  "image-to-video": "video",
  "text-to-speech": "audio",
  "text-to-audio": "audio",
};

/** Runs `work` over `items`, `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

describe("every mapping of the built-in catalogue", () => {
  it("is one the inference client serves", () => {
    expect(offered.length).toBeGreaterThan(200);
    const unserved = offered.filter(
      ({ provider, mapping }) => !providerTaskSupported(provider as InferenceProvider, mapping.task),
    );
    expect(unserved.map(({ model, provider, mapping }) => `${model} ${provider} ${mapping.task}`)).toEqual(
      [],
    );
  });

  it("has snippets, and runs through the hub's router with the inference client", async () => {
    const failures: string[] = [];
    await eachLimited(offered, 8, async ({ model, provider, mapping }) => {
      const label = `${model} on ${provider} (${mapping.task})`;
      const snippets = await fetch(
        `${hub.url}/api/models/${model}/snippets?provider=${encodeURIComponent(provider)}`,
      );
      const listed = snippets.ok ? ((await snippets.json()) as { snippets: unknown[] }).snippets : [];
      if (listed.length === 0) failures.push(`${label}: no snippet (${snippets.status})`);
      const run = TASK_FUNCTIONS[mapping.task as InferenceTask] as TaskFunction | undefined;
      const sample = TASK_SAMPLES[mapping.task];
      if (!run || !sample) {
        failures.push(`${label}: the client has no function for the task`);
        return;
      }
      try {
        const output = await run(
          { ...sample(), model, provider, accessToken: token } as never,
          { hubUrl: hub.url, routerUrl: `${hub.url}/router`, retryOnError: false } as never,
        );
        if (output === undefined || output === null) failures.push(`${label}: empty output`);
        const media = MEDIA_OF_TASK[mapping.task];
        if (media && !(output instanceof Blob && output.type.startsWith(`${media}/`))) {
          failures.push(
            `${label}: expected ${media}, got ${output instanceof Blob ? output.type : typeof output}`,
          );
        }
      } catch (error) {
        failures.push(`${label}: ${(error as Error).message.slice(0, 200)}`);
      }
    });
    expect(failures).toEqual([]);
  }, 120_000);
});
