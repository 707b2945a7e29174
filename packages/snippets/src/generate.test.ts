import { defaultLogger, INFERENCE_PROVIDERS, providerTaskSupported } from "@modelhub/inference";
import { type ModelData, PIPELINE_TYPES } from "@modelhub/tasks";
import { describe, expect, it, vi } from "vitest";
import { TemplateNotFoundError, UnsupportedFormatError } from "./errors.js";
import { getInferenceSnippets, parseProviderBody } from "./generate.js";
import { formatValue } from "./literals/code-value.js";
import { loadTemplate } from "./templates.js";

const chat: ModelData = {
  id: "meta-llama/Llama-3.1-8B-Instruct",
  tags: ["conversational"],
  pipeline_tag: "text-generation",
};
const base: ModelData = { id: "openai-community/gpt2", tags: [], pipeline_tag: "text-generation" };
const pick = (snippets: ReturnType<typeof getInferenceSnippets>, client: string) =>
  snippets.find((snippet) => snippet.client === client)?.content ?? "";

describe("template selection (spec §5)", () => {
  it("uses the conversational templates only for conversational text-generation / image-text-to-text", () => {
    const chatSnippets = getInferenceSnippets(
      chat,
      undefined,
      "together",
      "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
    );
    expect(pick(chatSnippets, "openai")).toContain("chat.completions.create");
    const baseSnippets = getInferenceSnippets(base, undefined, "hf-inference");
    expect(baseSnippets.some((s) => s.client === "openai")).toBe(false);
    expect(pick(baseSnippets, "huggingface_hub")).toContain("client.text_generation(");
    const vision: ModelData = {
      id: "Qwen/Qwen2.5-VL-7B-Instruct",
      tags: ["conversational"],
      pipeline_tag: "image-text-to-text",
    };
    expect(pick(getInferenceSnippets(vision, undefined, "hf-inference"), "requests")).toContain(
      '"image_url"',
    );
    const visionNoChat: ModelData = { ...vision, tags: [] };
    expect(getInferenceSnippets(visionNoChat, undefined, "hf-inference")).toEqual([]);
  });

  // Spec §5 names huggingface_hub, openai, requests and curl; huggingface.js and (non-streamed) fetch are
  // shown too, as today's public generator shows them.
  it("limits chat to huggingface_hub, openai, requests and curl clients (and huggingface.js, fetch)", () => {
    const clients = getInferenceSnippets(chat, undefined, "together", "x").map(
      (s) => `${s.language}/${s.client}`,
    );
    expect(clients).toEqual([
      "python/huggingface_hub",
      "python/requests",
      "python/openai",
      "js/huggingface.js",
      "js/openai",
      "js/fetch",
      "sh/curl",
    ]);
    const streamed = getInferenceSnippets(chat, undefined, "together", "x", { streaming: true });
    expect(streamed.map((s) => s.client)).not.toContain("fetch");
  });

  it("streams or not by the option", () => {
    const streamed = getInferenceSnippets(chat, undefined, "together", "x", { streaming: true });
    expect(pick(streamed, "requests")).toContain("stream=True");
    expect(pick(streamed, "curl")).toContain('"stream": true');
    const plain = getInferenceSnippets(chat, undefined, "together", "x");
    expect(pick(plain, "curl")).not.toContain('"stream"');
  });

  it("shows basic hub-client methods only for tasks in their method maps", () => {
    const tabular: ModelData = {
      id: "julien-c/wine-quality",
      tags: [],
      pipeline_tag: "tabular-classification",
    };
    const snippets = getInferenceSnippets(tabular, undefined, "hf-inference");
    // huggingface_hub sends tabular inputs as `table`, which the API refuses: no snippet that cannot run.
    expect(snippets.some((s) => s.client === "huggingface_hub")).toBe(false);
    expect(pick(snippets, "requests")).toContain('"inputs"');
    // @huggingface/inference's method map (about 13 tasks) has no tabular classification.
    expect(snippets.some((s) => s.client === "huggingface.js")).toBe(false);
    const text: ModelData = { id: "dslim/bert-base-NER", tags: [], pipeline_tag: "token-classification" };
    expect(pick(getInferenceSnippets(text, undefined, "hf-inference"), "huggingface_hub")).toContain(
      "client.token_classification(",
    );
  });

  it("shows fal_client only for text-to-image on fal-ai", () => {
    const flux: ModelData = { id: "black-forest-labs/FLUX.1-dev", tags: [], pipeline_tag: "text-to-image" };
    expect(
      getInferenceSnippets(flux, undefined, "fal-ai", "fal-ai/flux/dev").some(
        (s) => s.client === "fal_client",
      ),
    ).toBe(true);
    expect(getInferenceSnippets(flux, undefined, "hf-inference").some((s) => s.client === "fal_client")).toBe(
      false,
    );
  });

  it("gives nothing for a provider that does not serve the task, or a task with no template", () => {
    expect(getInferenceSnippets(chat, undefined, "fal-ai", "x")).toEqual([]);
    const robot: ModelData = { id: "lerobot/pi0", tags: [], pipeline_tag: "robotics" };
    expect(() => getInferenceSnippets(robot, undefined, "hf-inference")).toThrow(
      "No input example has been defined for this model task.",
    );
  });
});

describe("constants and parameters (spec §9)", () => {
  it("asks for 500 tokens by default and shows temperature and top_p only when set, 0 included", () => {
    const plain = pick(getInferenceSnippets(chat, undefined, "together", "x"), "openai");
    expect(plain).toContain("max_tokens=500");
    expect(plain).not.toContain("temperature");
    expect(plain).not.toContain("top_p");
    const set = pick(
      getInferenceSnippets(chat, undefined, "together", "x", { temperature: 0, top_p: 0, max_tokens: 64 }),
      "openai",
    );
    expect(set).toContain("temperature=0,");
    expect(set).toContain("top_p=0,");
    expect(set).toContain("max_tokens=64,");
  });

  it("uses 4-space indentation and the default prompt", () => {
    const flux: ModelData = {
      id: "stabilityai/stable-diffusion-xl-base-1.0",
      tags: [],
      pipeline_tag: "text-to-image",
    };
    const code = pick(getInferenceSnippets(flux, undefined, "hf-inference"), "requests");
    expect(code).toContain('\n    "inputs": "Astronaut in a jungle');
    expect(code).not.toMatch(/\n\t/);
  });

  it("sends audio as audio/flac and images as image/jpeg", () => {
    const asr: ModelData = {
      id: "openai/whisper-large-v3",
      tags: [],
      pipeline_tag: "automatic-speech-recognition",
    };
    expect(pick(getInferenceSnippets(asr, undefined, "hf-inference"), "curl")).toContain(
      "Content-Type: audio/flac",
    );
    const vit: ModelData = {
      id: "google/vit-base-patch16-224",
      tags: [],
      pipeline_tag: "image-classification",
    };
    expect(pick(getInferenceSnippets(vit, undefined, "hf-inference"), "fetch")).toContain(
      '"Content-Type": "image/jpeg"',
    );
  });
});

describe("tokens and routing", () => {
  it("reads HF_TOKEN from the environment by default and calls the router", () => {
    const snippets = getInferenceSnippets(chat, undefined, "together", "x");
    expect(pick(snippets, "requests")).toContain('os.environ["HF_TOKEN"]');
    expect(pick(snippets, "huggingface.js")).toContain("process.env.HF_TOKEN");
    expect(pick(snippets, "curl")).toContain('"Authorization: Bearer ${HF_TOKEN}"');
    // Chat through the router: its OpenAI-compatible /v1, the provider in `model` (today's public snippets).
    expect(pick(snippets, "curl")).toContain("https://router.huggingface.co/v1/chat/completions");
    expect(pick(snippets, "curl")).toContain('"model": "meta-llama/Llama-3.1-8B-Instruct:together"');
  });

  it("never writes a given token into the code unless asked to", () => {
    const token = "hf_secret_value_123";
    const hidden = getInferenceSnippets(chat, token, "together", "x");
    expect(hidden.every((s) => !s.content.includes(token))).toBe(true);
    const shown = getInferenceSnippets(chat, token, "together", "x", { inlineToken: true });
    expect(pick(shown, "requests")).toContain('"Authorization": "Bearer hf_secret_value_123"');
  });

  it("calls the provider directly with its own key variable for a provider key", () => {
    const snippets = getInferenceSnippets(chat, "tgp_provider_key", "together", "x");
    expect(pick(snippets, "curl")).toContain("https://api.together.xyz/v1/chat/completions");
    expect(pick(snippets, "curl")).toContain("${TOGETHER_API_KEY}");
    expect(pick(snippets, "curl")).not.toContain("tgp_provider_key");
  });

  it("targets a self-hosted hub and an endpoint URL", () => {
    const hub = getInferenceSnippets(chat, undefined, "together", "x", {
      hubUrl: "http://localhost:8080",
      routerUrl: "http://localhost:8080/router",
    });
    expect(pick(hub, "openai")).toContain('base_url="http://localhost:8080/router/v1"');
    expect(pick(hub, "huggingface_hub")).toContain(
      'constants.INFERENCE_PROXY_TEMPLATE = "http://localhost:8080/router/{provider}"',
    );
    const endpoint = getInferenceSnippets(chat, undefined, "hf-inference", undefined, {
      endpointUrl: "http://127.0.0.1:8000",
    });
    // An URL of inert characters is a bare shell word (the one shell quoting module leaves those bare).
    expect(pick(endpoint, "curl")).toMatch(
      /^curl -sS --fail-with-body http:\/\/127\.0\.0\.1:8000\/v1\/chat\/completions \\$/m,
    );
  });

  it("bills an organisation when asked", () => {
    const snippets = getInferenceSnippets(chat, undefined, "together", "x", { billTo: "acme-corp" });
    expect(pick(snippets, "curl")).toContain("'X-HF-Bill-To: acme-corp'");
    expect(pick(snippets, "huggingface_hub")).toContain('bill_to="acme-corp"');
  });
});

describe("errors and logging (spec §5, §8)", () => {
  it("says which template is missing", () => {
    expect(() => loadTemplate("python", "requests", "noSuchTemplate")).toThrow(TemplateNotFoundError);
    expect(() => loadTemplate("python", "requests", "noSuchTemplate")).toThrow(
      "Template not found: python/requests/noSuchTemplate",
    );
  });

  it("rejects an unknown text format", () => {
    expect(formatValue({ a: 1 }, "python")).toBe('{\n    "a": 1,\n}');
    expect(() => formatValue({ a: 1 }, "yaml")).toThrow(UnsupportedFormatError);
    expect(() => formatValue({ a: 1 }, "yaml")).toThrow("Unsupported format: yaml");
  });

  it("parses a provider body given as a string, and logs and falls back to the inputs when it is not JSON", () => {
    const args = { inputs: "hello" };
    const logger = { error: vi.fn() };
    const json = { bodyKind: "json" } as const;
    expect(parseProviderBody({ ...json, body: '{"inputs":"hello","extra":1}' }, args, logger)).toEqual({
      inputs: "hello",
      extra: 1,
    });
    expect(logger.error).not.toHaveBeenCalled();
    expect(parseProviderBody({ ...json, body: "not json {" }, args, logger)).toBe(args);
    expect(logger.error).toHaveBeenCalledWith("Failed to parse body as JSON", expect.any(SyntaxError));
    const objectBody = { inputs: "x" };
    expect(parseProviderBody({ ...json, body: objectBody }, args, logger)).toBe(objectBody);
    // A binary body is the file's bytes: never JSON, never parsed, nothing logged.
    logger.error.mockClear();
    expect(parseProviderBody({ bodyKind: "binary", body: "<file bytes>" }, args, logger)).toBe(args);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("logs a failed parse through @modelhub/inference's default logger when none is given", () => {
    const error = vi.spyOn(defaultLogger, "error").mockImplementation(() => {});
    try {
      parseProviderBody({ bodyKind: "json", body: "{" }, {}, undefined);
      expect(error).toHaveBeenCalledWith("Failed to parse body as JSON", expect.any(SyntaxError));
    } finally {
      error.mockRestore();
    }
  });

  it("never reaches the parse from getInferenceSnippets: every provider and task builds its JSON body as an object", () => {
    const logger = { error: vi.fn() };
    let generated = 0;
    let binary = 0;
    for (const task of [...PIPELINE_TYPES, "conversational" as const]) {
      const model: ModelData =
        task === "conversational"
          ? { id: "acme/chat", tags: ["conversational"], pipeline_tag: "text-generation" }
          : { id: "acme/model", tags: [], pipeline_tag: task };
      for (const provider of INFERENCE_PROVIDERS) {
        if (!providerTaskSupported(provider, task)) continue;
        const snippets = getInferenceSnippets(model, "hf_token", provider, undefined, { logger });
        if (snippets.length === 0) continue;
        generated++;
        if (
          snippets.some(
            (snippet) => snippet.content.includes("data=data") || snippet.content.includes("--data-binary"),
          )
        )
          binary++;
      }
    }
    expect(generated).toBeGreaterThan(40);
    expect(binary).toBeGreaterThan(0);
    expect(logger.error).not.toHaveBeenCalled();
  });
});
