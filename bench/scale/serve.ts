/**
 * The hub's API over N generated models, in its own process: `serve.ts <N>`. Writes a catalogue of N models
 * (ids, tasks, libraries, tags, counts and dates varied deterministically), loads it into a fresh SQLite data
 * dir as the first start does, and serves the hub's app on loopback. The models are catalogue rows without
 * repositories (creating N demo repositories at start would take minutes at 100k). Prints one JSON line.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { createApp, openStore } from "@modelhub/hub";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
// The seeding entry point is internal to the hub; the benchmark loads the catalogue the way a first start does.
import { seedOnFirstStart } from "../../apps/hub/src/catalogue/catalogue.js";

const count = Number(process.argv[2] ?? 1000);
const TASKS = [
  "text-generation",
  "text-classification",
  "image-classification",
  "automatic-speech-recognition",
  "feature-extraction",
  "text-to-image",
  "token-classification",
  "summarization",
];
const LIBRARIES = ["transformers", "diffusers", "sentence-transformers", "gguf", "timm", "peft"];

function generatedModel(i: number) {
  const day = new Date(Date.UTC(2023, 0, 1) + (i % 1000) * 86_400_000 + i * 1000);
  const task = TASKS[i % TASKS.length]!;
  const library = LIBRARIES[(i * 7) % LIBRARIES.length]!;
  return {
    id: `org-${i % 997}/model-${i}`,
    pipeline_tag: task,
    library_name: library,
    tags: [library, task, `license:${i % 3 ? "apache-2.0" : "mit"}`, i % 5 ? "en" : "fr"],
    downloads: (i * 2654435761) % 10_000_000,
    likes: (i * 40503) % 5000,
    trendingScore: i % 100,
    createdAt: day.toISOString(),
    lastModified: day.toISOString(),
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "modelhub-bench-scale-"));
  const catalogue = join(dir, "catalogue");
  mkdirSync(catalogue);
  writeFileSync(
    join(catalogue, "models.json"),
    JSON.stringify(Array.from({ length: count }, (_, i) => generatedModel(i))),
  );
  writeFileSync(join(catalogue, "mappings.json"), "{}");
  const store = await openStore({ dataDir: join(dir, "data") });
  const started = Date.now();
  await seedOnFirstStart(store, catalogue, INFERENCE_PROVIDERS);
  const seedMs = Date.now() - started;
  const app = createApp({ store });
  const server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.stdout.write(`${JSON.stringify({ url, seedMs, models: await store.models.count() })}\n`);
  process.once("SIGTERM", () => {
    server.close();
    void Promise.resolve(store.close()).then(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
