import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoApp } from "../__fixtures__/repo-app.js";
import { MAX_CARD_BYTES } from "./derive-model.js";
import { writeTinyGguf } from "./gguf.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;
let hub: Awaited<ReturnType<typeof repoApp>>;
beforeEach(async () => {
  hub = await repoApp();
  await hub.createRepo("alice/derived");
});
afterEach(() => hub.cleanup());

/** A safetensors file: 8-byte header length, JSON header, then the tensors' bytes. */
function safetensors(tensors: Record<string, { dtype: string; shape: number[] }>): Buffer {
  let offset = 0;
  const header: Record<string, unknown> = { __metadata__: { format: "pt" } };
  for (const [name, tensor] of Object.entries(tensors)) {
    const bytes = tensor.shape.reduce((a, b) => a * b, 1) * (tensor.dtype === "F32" ? 4 : 2);
    header[name] = { ...tensor, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(json.length));
  return Buffer.concat([length, json, Buffer.alloc(offset)]);
}

describe("derived model data", () => {
  it("reads card metadata, config, chat template, safetensors and GGUF headers on every commit", async () => {
    const template = "{% for m in messages %}{{ m.content }}{% endfor %}";
    const response = await hub.commitFiles("alice/derived", {
      "README.md":
        "---\nlicense: apache-2.0\npipeline_tag: text-generation\nlibrary_name: transformers\ntags: [chat]\nbase_model: org/base\n---\n# Derived\nA card.\n",
      "config.json": JSON.stringify({
        architectures: ["LlamaForCausalLM"],
        model_type: "llama",
        hidden_size: 8,
      }),
      "tokenizer_config.json": JSON.stringify({ chat_template: template, eos_token: "</s>" }),
      "model.safetensors": safetensors({
        a: { dtype: "F32", shape: [4, 8] },
        b: { dtype: "BF16", shape: [10] },
      }),
      "tiny.gguf": writeTinyGguf({
        "general.architecture": "llama",
        "llama.context_length": 4096,
        "tokenizer.chat_template": template,
      }),
    });
    expect(response.status).toBe(200);
    const model: Json = await (await hub.app.request("/api/models/alice/derived?full=true")).json();
    expect(model.pipeline_tag).toBe("text-generation");
    expect(model.library_name).toBe("transformers");
    expect(model.cardData).toMatchObject({ license: "apache-2.0", base_model: "org/base" });
    expect(model.cardText).toBe("# Derived\nA card.\n");
    expect(model.tags).toEqual(
      expect.arrayContaining(["transformers", "chat", "license:apache-2.0", "safetensors", "gguf"]),
    );
    expect(model.config).toEqual({
      architectures: ["LlamaForCausalLM"],
      model_type: "llama",
      tokenizer_config: { chat_template: template, eos_token: "</s>" },
    });
    expect(model.safetensors).toEqual({ parameters: { F32: 32, BF16: 10 }, total: 42 });
    expect(model.gguf).toMatchObject({
      architecture: "llama",
      context_length: 4096,
      chat_template: template,
    });

    // The listing the existing API serves sees the repository with its derived fields.
    const listed: Json = await (await hub.app.request("/api/models?search=alice/derived")).json();
    expect(listed.map((m: Json) => [m.id, m.pipeline_tag])).toEqual([["alice/derived", "text-generation"]]);

    // chat_template.jinja takes precedence, and a later commit re-derives.
    await hub.commitFiles("alice/derived", { "chat_template.jinja": "{{ messages[0].content }}" });
    const after: Json = await (await hub.app.request("/api/models/alice/derived?expand[]=config")).json();
    expect(after.config.tokenizer_config.chat_template).toBe("{{ messages[0].content }}");
  });

  it("knows a user's transformers repository's auto class, so its Library tab has loading code (issue 38)", async () => {
    await hub.commitFiles("alice/derived", {
      "README.md": "---\nlibrary_name: transformers\n---\n# Mine\n",
      "config.json": JSON.stringify({ architectures: ["Qwen2ForCausalLM"], model_type: "qwen2" }),
      "tokenizer.json": "{}",
    });
    const model: Json = await (
      await hub.app.request("/api/models/alice/derived?expand[]=transformersInfo")
    ).json();
    expect(model.transformersInfo).toEqual({
      auto_model: "AutoModelForCausalLM",
      pipeline_tag: "text-generation",
      processor: "AutoTokenizer",
    });
    const snippets: Json = await (await hub.app.request("/api/models/alice/derived/library-snippets")).json();
    const code = snippets.snippets.map((snippet: Json) => snippet.content).join("\n");
    expect(code).not.toContain("unknown");
    expect(code).toContain('AutoModelForCausalLM.from_pretrained("alice/derived")');
    expect(code).toContain('os.environ["HF_ENDPOINT"]');

    // A card that says transformers, with no config.json yet: the plain auto class for the card's task.
    await hub.createRepo("alice/card-only");
    await hub.commitFiles("alice/card-only", {
      "README.md": "---\nlibrary_name: transformers\npipeline_tag: text-classification\n---\n",
    });
    const cardOnly: Json = await (
      await hub.app.request("/api/models/alice/card-only?expand[]=transformersInfo")
    ).json();
    expect(cardOnly.transformersInfo).toEqual({
      auto_model: "AutoModelForSequenceClassification",
      pipeline_tag: "text-classification",
    });
  });

  it("keeps the commit and derives nothing from files it cannot parse", async () => {
    const response = await hub.commitFiles("alice/derived", {
      "README.md": "---\ntitle: [unclosed\n---\nbody",
      "config.json": "{not json",
      "model.safetensors": "garbage",
    });
    expect(response.status).toBe(200);
    const model: Json = await (await hub.app.request("/api/models/alice/derived?full=true")).json();
    expect(model.cardData).toBeUndefined();
    expect(model.safetensors).toBeUndefined();
    expect(model.siblings.map((s: Json) => s.rfilename)).toContain("model.safetensors");
  });

  it("reads a huge README's first 512 KiB: front matter, and more text than the page shows", async () => {
    const line = `${"Ünïcode line of a very long card. ".repeat(3)}\n`;
    const body = line.repeat(Math.ceil((10 * 1024 * 1024) / Buffer.byteLength(line)));
    // 10 MB goes through LFS, as a client sends a README that large.
    const readme = Buffer.from(`---\nlicense: mit\n---\n${body}`);
    const oid = createHash("sha256").update(readme).digest("hex");
    const batch = await hub.app.request("/alice/derived.git/info/lfs/objects/batch", {
      method: "POST",
      headers: { ...hub.auth, "Content-Type": "application/vnd.git-lfs+json" },
      body: JSON.stringify({ operation: "upload", objects: [{ oid, size: readme.byteLength }] }),
    });
    const { objects } = (await batch.json()) as { objects: { actions: { upload: { href: string } } }[] };
    const upload = new URL(objects[0]!.actions.upload.href).pathname;
    expect((await hub.app.request(upload, { method: "PUT", body: readme })).status).toBe(200);
    const lfsFile = { path: "README.md", algo: "sha256", oid, size: readme.byteLength };
    const response = await hub.app.request("/api/models/alice/derived/commit/main", {
      method: "POST",
      headers: { ...hub.auth, "Content-Type": "application/x-ndjson" },
      body: hub.ndjson("A 10 MB card", { key: "lfsFile", value: lfsFile }),
    });
    expect(response.status).toBe(200);
    const model: Json = await (
      await hub.app.request("/api/models/alice/derived?expand[]=cardText&expand[]=cardData")
    ).json();
    expect(model.cardData).toEqual({ license: "mit" });
    expect(Buffer.byteLength(model.cardText)).toBeLessThanOrEqual(MAX_CARD_BYTES);
    expect(model.cardText.length).toBeGreaterThan(100_000);
    expect(body.startsWith(model.cardText)).toBe(true);
  });
});
