import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { readGgufSummary } from "../derive/gguf.js";

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.remove());

const start = () =>
  startTestHub({ dataDir: join(temp.dir, "data"), catalogueDir: FIXTURE_CATALOGUE_DIR, providerSim: false });

describe("the catalogue as repositories", () => {
  it("gives every catalogue model a demo repository with an honest card, its config and tiny GGUFs", async () => {
    const hub = await start();
    try {
      expect(await hub.store.models.count()).toBe(20);
      const qwen = "Qwen/Qwen2.5-7B-Instruct";
      const record = (await hub.store.models.get(qwen))!;
      const files = (await (await fetch(`${hub.url}/api/models/${qwen}/tree/main`)).json()) as {
        path: string;
      }[];
      expect(files.map((file) => file.path).sort()).toEqual(
        [".gitattributes", "README.md", "config.json", "tokenizer.json", "tokenizer_config.json"].sort(),
      );
      const card = await (await fetch(`${hub.url}/${qwen}/resolve/main/README.md`)).text();
      expect(card).toContain("**Demo copy.**");
      expect(card).toContain(`https://huggingface.co/${qwen}`);
      expect(card).toContain("The weights are not here");
      // The catalogue's generated summary is not passed off as the original's card (issue 38, item 1).
      expect(card).not.toContain("Original model card");
      expect(card).toContain("The original model card is on huggingface.co");
      const tokenizer = await (await fetch(`${hub.url}/${qwen}/resolve/main/tokenizer_config.json`)).json();
      expect(tokenizer).toEqual((record.config as { tokenizer_config: unknown }).tokenizer_config);
      const config = (await (await fetch(`${hub.url}/${qwen}/resolve/main/config.json`)).json()) as Json;
      expect(config.architectures).toEqual((record.config as Json).architectures);

      // Every GGUF file the record lists exists, tiny, with the original's metadata in its header.
      const ggufId = "bartowski/Llama-3.2-3B-Instruct-GGUF";
      const ggufRecord = (await hub.store.models.get(ggufId))!;
      const listed = (ggufRecord.siblings ?? [])
        .map((file) => file.rfilename)
        .filter((p) => p.endsWith(".gguf"));
      expect(listed.length).toBeGreaterThan(3);
      for (const path of listed) {
        const response = await fetch(`${hub.url}/${ggufId}/resolve/main/${path}`);
        expect(response.status).toBe(200);
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(bytes.byteLength).toBeLessThan(64 * 1024);
        const summary = await readGgufSummary(async (s, e) => bytes.subarray(s, e + 1), bytes.byteLength);
        expect(summary).toMatchObject({
          architecture: ggufRecord.gguf?.architecture,
          context_length: ggufRecord.gguf?.context_length,
          chat_template: ggufRecord.gguf?.chat_template,
        });
      }
      // The record keeps the original model's facts (the demo copy has no weights to count).
      const info = (await (
        await fetch(`${hub.url}/api/models/${ggufId}?expand[]=gguf&expand[]=sha`)
      ).json()) as Json;
      expect(info.gguf.total).toBe(ggufRecord.gguf?.total);
      expect(info.sha).toMatch(/^[0-9a-f]{40}$/);
    } finally {
      await hub.close();
    }
    // A second start creates nothing new.
    const again = await start();
    try {
      const commits = (await (
        await fetch(`${again.url}/api/models/Qwen/Qwen2.5-7B-Instruct/commits/main`)
      ).json()) as Json[];
      expect(commits.map((commit) => commit.title)).toEqual(["Demo copy of Qwen/Qwen2.5-7B-Instruct"]);
    } finally {
      await again.close();
    }
  });
});

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;
