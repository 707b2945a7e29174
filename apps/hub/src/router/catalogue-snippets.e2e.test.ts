import { join } from "node:path";
import type { InferenceSnippet } from "@modelhub/snippets";
import { type BatchEntry, makeWorkDir, runSnippetBatch } from "@modelhub/snippets/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { ProviderMapping } from "../catalogue/mapping-record.js";
import type { RunningHub } from "../start-hub.js";
import { grantGatedModelsToEveryone } from "./__fixtures__/gated-grants.js";
import { checkSnippetResult } from "./__fixtures__/snippet-results.js";

/**
 * Every snippet the hub offers for every provider mapping of the built-in catalogue, and for `auto` on every
 * model with a live mapping (streaming and not, for chat), runs for real: the hub as `npm start` runs it
 * (built-in catalogue, built-in provider-sim) on loopback, its snippets endpoint, and each snippet, as
 * pasted, calling through the hub's router with the real clients (python huggingface_hub / requests /
 * openai from the project's virtualenv, node @huggingface/inference / openai / fetch, curl). Each must end
 * well and print or save the task's real result (snippet-results.ts). The ~2,000 runs are batched: one
 * Python interpreter, one node process and one bash script run them all (packages/snippets run-batch.ts).
 */
let temp: ReturnType<typeof makeTempDir>;
let work: ReturnType<typeof makeWorkDir>;
let hub: RunningHub;
let token: string;

interface Offer {
  model: string;
  /** A provider, or "auto". */
  provider: string;
  task: string;
  streaming: boolean;
}

const offers: Array<Offer & { autoProvider?: string; snippets: InferenceSnippet[] }> = [];

async function listMappings(): Promise<Array<{ id: string; mappings: Record<string, ProviderMapping> }>> {
  const models: Array<{ id: string; mappings: Record<string, ProviderMapping> }> = [];
  let cursor: string | null = `${hub.url}/api/models?expand[]=inferenceProviderMapping&limit=1000`;
  while (cursor) {
    const response: Response = await fetch(cursor);
    for (const model of (await response.json()) as Array<{
      id: string;
      inferenceProviderMapping?: Record<string, ProviderMapping>;
    }>) {
      models.push({ id: model.id, mappings: model.inferenceProviderMapping ?? {} });
    }
    cursor = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1] ?? null;
  }
  return models;
}

beforeAll(async () => {
  temp = makeTempDir();
  work = makeWorkDir();
  hub = await startTestHub({ dataDir: join(temp.dir, "data") });
  token = await userToken(hub.store, "snippets", "read");
  // The catalogue's gated models need a grant for inference, as for their files.
  await grantGatedModelsToEveryone(hub.store);
  const wanted: Offer[] = [];
  for (const { id, mappings } of await listMappings()) {
    const entries = Object.entries(mappings);
    for (const [provider, mapping] of entries) {
      for (const streaming of mapping.task === "conversational" ? [false, true] : [false]) {
        wanted.push({ model: id, provider, task: mapping.task, streaming });
      }
    }
    const live = entries.filter(([, mapping]) => mapping.status === "live");
    for (const task of new Set(live.map(([, mapping]) => mapping.task))) {
      for (const streaming of task === "conversational" ? [false, true] : [false]) {
        wanted.push({ model: id, provider: "auto", task, streaming });
      }
    }
  }
  let next = 0;
  const fetchSnippets = async () => {
    while (next < wanted.length) {
      const offer = wanted[next++]!;
      const query = new URLSearchParams({ provider: offer.provider, streaming: String(offer.streaming) });
      const response = await fetch(`${hub.url}/api/models/${offer.model}/snippets?${query}`);
      const answer = (await response.json()) as { snippets?: InferenceSnippet[]; autoProvider?: string };
      offers.push({ ...offer, autoProvider: answer.autoProvider, snippets: answer.snippets ?? [] });
    }
  };
  await Promise.all(Array.from({ length: 8 }, fetchSnippets));
}, 120_000);

afterAll(async () => {
  await hub?.close();
  temp?.remove();
  work?.remove();
}, 30_000);

/** fal_client cannot be installed here: its snippets are compiled in packages/snippets' fal-client.test.ts. */
const NOT_INSTALLABLE = new Set(["fal_client"]);

describe("every snippet of the built-in catalogue", () => {
  it("is offered for every mapping, and for auto", () => {
    expect(offers.length).toBeGreaterThan(400);
    const none = offers.filter((offer) => offer.snippets.length === 0);
    expect(none.map(({ model, provider, task }) => `${model} ${provider} ${task}`)).toEqual([]);
  });

  it("runs through the hub and shows the task's result", async () => {
    const entries: BatchEntry[] = [];
    const offerOf = new Map<string, (typeof offers)[number]>();
    for (const offer of offers) {
      for (const snippet of offer.snippets) {
        if (NOT_INSTALLABLE.has(snippet.client)) continue;
        const id = `${offer.model} on ${offer.provider}${offer.autoProvider ? ` (${offer.autoProvider})` : ""}, ${offer.task}${offer.streaming ? " streamed" : ""}, ${snippet.language}/${snippet.client}`;
        entries.push({ id, snippet });
        offerOf.set(id, offer);
      }
    }
    const results = await runSnippetBatch(entries, work.dir, { HF_TOKEN: token });
    const failures: string[] = [];
    for (const { id, snippet } of entries) {
      const offer = offerOf.get(id)!;
      const result = results.get(id)!;
      const problem =
        result.code !== 0
          ? `exited ${result.code}: ${result.stderr.slice(-1200)}`
          : checkSnippetResult({ ...offer, provider: offer.autoProvider ?? offer.provider }, snippet, result);
      if (problem) failures.push(`${id}: ${problem}\n--- snippet ---\n${snippet.content}`);
    }
    expect(entries.length).toBeGreaterThan(1000);
    expect(
      failures.length,
      `${failures.length} snippets failed; the first 20:\n\n${failures.slice(0, 20).join("\n\n")}`,
    ).toBe(0);
  }, 300_000);
});
