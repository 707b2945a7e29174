import { join } from "node:path";
import { InferenceClient } from "@modelhub/inference";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import type { RunningHub } from "../start-hub.js";

/**
 * A LoRA adapter mapping (`adapter: "lora"`, `adapterWeightsPath`) from the admin API to fal-ai: the hub
 * publishes it in the public hub's shape, and the inference client, through the hub's router, asks the
 * provider to apply the adapter's weights, downloaded from this hub.
 */
const ADMIN_TOKEN = "lora-e2e-admin-token-0123456789";
const LORA = "someone/flux-watercolor-lora";
let temp: ReturnType<typeof makeTempDir>;
let hub: RunningHub;
let token: string;

const admin = (method: string, path: string, body: unknown) =>
  fetch(`${hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  temp = makeTempDir();
  hub = await startTestHub({ dataDir: join(temp.dir, "data"), adminToken: ADMIN_TOKEN });
  token = await userToken(hub.store, "lora-user", "read");
  const created = await admin("POST", "/api/admin/models", {
    id: LORA,
    pipeline_tag: "text-to-image",
    library_name: "diffusers",
    tags: ["diffusers", "lora", "text-to-image", "base_model:adapter:black-forest-labs/FLUX.1-dev"],
  });
  expect(created.status).toBeLessThan(300);
}, 60_000);
afterAll(async () => {
  await hub?.close();
  temp?.remove();
});

describe("LoRA adapters in provider mappings", () => {
  it("refuses an unknown adapter kind or a weights path outside the repository", async () => {
    const base = { status: "live", providerId: "fal-ai/flux-lora", task: "text-to-image" };
    for (const bad of [
      { ...base, adapter: "dora", adapterWeightsPath: "w.safetensors" },
      { ...base, adapter: "lora" },
      { ...base, adapter: "lora", adapterWeightsPath: "../secrets.safetensors" },
      { ...base, adapter: "lora", adapterWeightsPath: "/etc/passwd" },
    ]) {
      const refused = await admin("PUT", `/api/admin/models/${LORA}/mappings/fal-ai`, bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it("publishes the adapter and sends its weights URL to fal-ai through the router", async () => {
    const mapping = {
      status: "live",
      providerId: "fal-ai/flux-lora",
      task: "text-to-image",
      adapter: "lora",
      adapterWeightsPath: "weights/watercolor.safetensors",
    };
    expect((await admin("PUT", `/api/admin/models/${LORA}/mappings/fal-ai`, mapping)).status).toBe(200);
    const info = await fetch(`${hub.url}/api/models/${LORA}?expand[]=inferenceProviderMapping`);
    expect(((await info.json()) as { inferenceProviderMapping: unknown }).inferenceProviderMapping).toEqual({
      "fal-ai": mapping,
    });

    const client = new InferenceClient(token, { hubUrl: hub.url, routerUrl: `${hub.url}/router` });
    const image = await client.textToImage({ model: LORA, provider: "fal-ai", inputs: "a lighthouse" });
    expect(image.type).toMatch(/^image\//);

    const log = (await (await fetch(`${hub.providerSimUrl}/__sim/requests`)).json()) as Array<{
      path: string;
      json: unknown;
    }>;
    const call = log.find((entry) => entry.path.includes("fal-ai/flux-lora"));
    expect(call?.json).toMatchObject({
      prompt: "a lighthouse",
      loras: [{ path: `${hub.url}/${LORA}/resolve/main/weights/watercolor.safetensors`, scale: 1 }],
    });
  });
});
