import { describe, expect, it } from "vitest";
import type { ModelData } from "../model-data.js";
import fixtures from "./__fixtures__/models.json" with { type: "json" };
import {
  defaultGgufQuantization,
  getLocalAppsForModel,
  LOCAL_APP_KEYS,
  LOCAL_APPS,
  type LocalApp,
  listGgufQuantizations,
} from "./index.js";

const models = fixtures as Record<keyof typeof fixtures, ModelData>;
const appsFor = (model: ModelData): string[] => getLocalAppsForModel(model).map(({ key }) => key);
const GGUF_ONLY = [
  "llama.cpp",
  "ollama",
  "jan",
  "docker-model-runner",
  "node-llama-cpp",
  "localai",
  "msty",
  "recursechat",
];

describe("LOCAL_APPS", () => {
  it("lists the expected apps with labels, docs and a way to run the model", () => {
    expect(LOCAL_APP_KEYS.length).toBeGreaterThanOrEqual(27);
    for (const key of [
      "llama.cpp",
      "ollama",
      "lmstudio",
      "jan",
      "vllm",
      "sglang",
      "llamafile",
      "mlx-lm",
      "docker-model-runner",
      "tgi",
      "unsloth",
      "lemonade",
      "jellybox",
      "backyard",
      "sanctum",
      "joyfusion",
      "atomic-chat",
      "pi",
      "hermes-agent",
      "openclaw",
    ]) {
      expect(LOCAL_APP_KEYS).toContain(key);
    }
    for (const key of LOCAL_APP_KEYS) {
      const app: LocalApp = LOCAL_APPS[key];
      expect(app.prettyLabel.length).toBeGreaterThan(0);
      expect(new URL(app.docsUrl).protocol).toBe("https:");
      expect(app.kind === "snippet" ? typeof app.snippet : typeof app.deeplink).toBe("function");
    }
  });
});

describe("displayOnModelPage", () => {
  it("shows GGUF apps for a GGUF chat model, and hides server and image apps", () => {
    const apps = appsFor(models.ggufChat);
    for (const key of [...GGUF_ONLY, "lmstudio", "llamafile"]) expect(apps).toContain(key);
    for (const key of ["vllm", "sglang", "mlx-lm", "drawthings", "diffusionbee", "invoke"])
      expect(apps).not.toContain(key);
  });

  it("hides GGUF-only apps for models without GGUF files", () => {
    for (const model of [
      models.transformersChat,
      models.mlx,
      models.diffusers,
      models.bertClassifier,
      models.awqVision,
    ]) {
      const apps = appsFor(model);
      for (const key of GGUF_ONLY) expect(apps, model.id).not.toContain(key);
    }
  });

  it("shows GPU servers for transformers and quantized LLMs only", () => {
    expect(appsFor(models.transformersChat)).toEqual(["vllm", "sglang"]);
    expect(appsFor(models.awqVision)).toEqual(["vllm", "sglang"]);
    expect(appsFor(models.bertClassifier)).toEqual([]);
  });

  it("shows MLX apps for MLX weights, flagged macOS only", () => {
    expect(appsFor(models.mlx)).toEqual(["lmstudio", "mlx-lm", "atomic-chat"]);
    expect(LOCAL_APPS["mlx-lm"].macOSOnly).toBe(true);
  });

  it("keeps chat apps away from a GGUF embedding model", () => {
    const apps = appsFor(models.ggufEmbedding);
    expect(apps).toContain("llama.cpp");
    for (const key of ["jan", "msty", "lmstudio", "recursechat", "node-llama-cpp", "llamafile"])
      expect(apps).not.toContain(key);
  });

  it("shows image apps for diffusers models; the macOS ones are flagged", () => {
    expect(appsFor(models.diffusers)).toEqual(["drawthings", "diffusionbee", "invoke", "jellybox"]);
    expect(appsFor(models.diffusersLora)).toEqual(["drawthings", "diffusionbee", "invoke"]);
    expect(LOCAL_APPS.drawthings.macOSOnly && LOCAL_APPS.diffusionbee.macOSOnly).toBe(true);
  });

  it("shows the GGUF chat apps added since, and the coding agents only with a tool-calling template", () => {
    const apps = appsFor(models.ggufChat);
    for (const key of ["unsloth", "lemonade", "atomic-chat", "backyard", "sanctum", "jellybox"])
      expect(apps).toContain(key);
    for (const key of ["pi", "hermes-agent", "openclaw"]) expect(apps).not.toContain(key);
    const withTools: ModelData = {
      ...models.ggufChat,
      gguf: { total: 1, chat_template: "{%- if tools is not none %}{{ tools | tojson }}{%- endif %}" },
    };
    expect(appsFor(withTools)).toEqual(expect.arrayContaining(["pi", "hermes-agent", "openclaw"]));
    const mlxWithTools: ModelData = {
      ...models.mlx,
      config: { tokenizer_config: { chat_template: [{ name: "default", template: "{{ tools }}" }] } },
    };
    expect(appsFor(mlxWithTools)).toEqual([
      "lmstudio",
      "mlx-lm",
      "atomic-chat",
      "pi",
      "hermes-agent",
      "openclaw",
    ]);
    for (const key of ["unsloth", "lemonade", "backyard", "sanctum", "jellybox"])
      expect(appsFor(models.ggufEmbedding)).not.toContain(key);
  });

  it("shows TGI, Unsloth, Lemonade and JoyFusion from the tags their builds carry", () => {
    expect(
      appsFor({
        ...models.transformersChat,
        tags: [...models.transformersChat.tags, "text-generation-inference"],
      }),
    ).toEqual(["vllm", "sglang", "tgi"]);
    expect(
      appsFor({ ...models.transformersChat, tags: [...models.transformersChat.tags, "unsloth"] }),
    ).toContain("unsloth");
    expect(
      appsFor({ id: "amd/x-onnx-ryzenai-hybrid", tags: ["ryzenai-hybrid"], pipeline_tag: "text-generation" }),
    ).toEqual(["lemonade"]);
    const joy: ModelData = { id: "a/b", tags: ["coreml", "joyfusion"], pipeline_tag: "text-to-image" };
    expect(appsFor(joy)).toEqual(["joyfusion"]);
    expect(LOCAL_APPS.joyfusion.macOSOnly).toBe(true);
    expect(appsFor({ ...joy, tags: ["coreml"] })).toEqual([]);
  });

  it("shows llamafile for a repository of llamafiles", () => {
    expect(appsFor(models.llamafile)).toEqual(["llamafile"]);
  });
});

describe("GGUF quantization pick", () => {
  it("lists one entry per quantization, smallest first, without companion files", () => {
    const quants = listGgufQuantizations(models.ggufChat);
    expect(quants.map((q) => q.label)).toEqual([
      "IQ3_M",
      "Q3_K_L",
      "Q4_0",
      "Q4_K_M",
      "Q6_K_L",
      "Q8_0",
      "F16",
    ]);
    expect(quants.find((q) => q.label === "Q4_K_M")).toMatchObject({
      files: ["Llama-3.2-1B-Instruct-Q4_K_M.gguf"],
      size: 807694464,
      bitsPerWeight: 4.5,
    });
    expect(listGgufQuantizations(models.ggufVision).map((q) => q.label)).toEqual(["Q4_K_M"]);
  });

  it("groups shards, first shard first, and sums their sizes", () => {
    const quants = listGgufQuantizations(models.ggufSplit);
    expect(quants.map((q) => q.label)).toEqual(["UD-IQ1_S", "Q4_K_M"]);
    expect(quants[0]?.files).toEqual([
      "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00001-of-00003.gguf",
      "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00002-of-00003.gguf",
      "DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00003-of-00003.gguf",
    ]);
    expect(quants[0]?.size).toBe(131000000000);
  });

  it("preselects Q4_K_M, else the smallest", () => {
    expect(defaultGgufQuantization(models.ggufChat)?.label).toBe("Q4_K_M");
    expect(defaultGgufQuantization(models.ggufEmbedding)?.label).toBe("Q8_0");
    expect(defaultGgufQuantization(models.ggufNoLabel)).toMatchObject({ label: "model.gguf", parsed: false });
    expect(defaultGgufQuantization(models.transformersChat)).toBeUndefined();
  });
});

describe("snippets for the default and the picked quantization", () => {
  it("pulls the picked quantization by tag", () => {
    const [ollama] = LOCAL_APPS.ollama.snippet(models.ggufChat);
    expect(ollama?.content).toEqual(["ollama run hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M"]);
    const [picked] = LOCAL_APPS.ollama.snippet(models.ggufChat, "Llama-3.2-1B-Instruct-Q8_0.gguf");
    expect(picked?.content).toEqual(["ollama run hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q8_0"]);
    const [docker] = LOCAL_APPS["docker-model-runner"].snippet(models.ggufSplit);
    expect(docker?.content).toEqual(["docker model run hf.co/unsloth/DeepSeek-R1-GGUF:Q4_K_M"]);
  });

  it("pulls Lemonade models by tag and runs them under the name Lemonade registers", () => {
    const [lemonade] = LOCAL_APPS.lemonade.snippet(models.ggufChat, "Llama-3.2-1B-Instruct-Q8_0.gguf");
    expect(lemonade?.content).toEqual([
      "lemonade pull bartowski/Llama-3.2-1B-Instruct-GGUF:Q8_0\nlemonade run user.Llama-3.2-1B-Instruct-GGUF-Q8_0",
    ]);
  });

  it("serves the model locally before pointing a coding agent at it", () => {
    const [server, pi] = LOCAL_APPS.pi.snippet(models.ggufChat);
    expect(server?.content).toEqual([
      "llama-server -hf bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M --jinja --port 8080",
    ]);
    expect(pi?.content).toEqual([
      "pi --provider llama-cpp --model bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M",
    ]);
    const config = JSON.parse(pi?.setup?.split("\n").at(-1)?.replace(/^# /, "") ?? "null");
    expect(config.providers["llama-cpp"]).toMatchObject({
      baseUrl: "http://127.0.0.1:8080/v1",
      models: [{ id: "bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M" }],
    });
  });

  it("names the exact file when it announces no quantization", () => {
    const [brew] = LOCAL_APPS["llama.cpp"].snippet(models.ggufNoLabel);
    expect(brew?.content[0]).toContain("llama-server --hf-repo acme/tiny-gguf --hf-file model.gguf");
  });

  it("downloads every shard for llamafile and loads the first", () => {
    const [run] = LOCAL_APPS.llamafile.snippet(
      models.ggufSplit,
      "DeepSeek-R1-Q4_K_M/DeepSeek-R1-Q4_K_M-00002-of-00002.gguf",
    );
    const text = run?.content[0] ?? "";
    expect(text.match(/^curl -L -o /gm)).toHaveLength(2);
    expect(text).toContain(
      "https://huggingface.co/unsloth/DeepSeek-R1-GGUF/resolve/main/DeepSeek-R1-Q4_K_M/DeepSeek-R1-Q4_K_M-00001-of-00002.gguf",
    );
    expect(text).toMatch(/\.\/llamafile -m DeepSeek-R1-Q4_K_M-00001-of-00002\.gguf$/);
  });

  it("builds deep links with the file picked", () => {
    const url = LOCAL_APPS.lmstudio.deeplink(models.ggufChat, "Llama-3.2-1B-Instruct-Q4_0.gguf");
    expect(url.href).toBe(
      "lmstudio://open_from_hf?model=bartowski%2FLlama-3.2-1B-Instruct-GGUF&file=Llama-3.2-1B-Instruct-Q4_0.gguf",
    );
    expect(LOCAL_APPS.jan.deeplink(models.ggufChat).href).toBe(
      "jan://models/huggingface/bartowski/Llama-3.2-1B-Instruct-GGUF",
    );
    expect(
      LOCAL_APPS.unsloth.deeplink(
        models.ggufSplit,
        "DeepSeek-R1-Q4_K_M/DeepSeek-R1-Q4_K_M-00002-of-00002.gguf",
      ).href,
    ).toBe(
      "unsloth://open_from_hf?model=unsloth%2FDeepSeek-R1-GGUF&file=DeepSeek-R1-Q4_K_M%2FDeepSeek-R1-Q4_K_M-00001-of-00002.gguf",
    );
    expect(LOCAL_APPS.sanctum.deeplink(models.ggufChat).href).toBe(
      "sanctum://open_from_hf?model=bartowski%2FLlama-3.2-1B-Instruct-GGUF",
    );
    expect(LOCAL_APPS.jellybox.deeplink(models.ggufChat).href).toBe(
      "jellybox://llm/models/huggingface/LLM/bartowski/Llama-3.2-1B-Instruct-GGUF",
    );
    expect(LOCAL_APPS.jellybox.deeplink(models.diffusers).href).toBe(
      "jellybox://image/models/huggingface/Image/stabilityai/stable-diffusion-xl-base-1.0",
    );
    expect(LOCAL_APPS.jellybox.deeplink(models.diffusersLora).href).toBe(
      "jellybox://image/models/huggingface/ImageLora/nerijs/pixel-art-xl",
    );
    expect(LOCAL_APPS.drawthings.deeplink(models.diffusersLora).pathname).toBe(
      "/import/diffusers/pipeline.load_lora_weights",
    );
  });
});
