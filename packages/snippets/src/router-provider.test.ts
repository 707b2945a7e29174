import type { ModelData } from "@modelhub/tasks";
import { describe, expect, it } from "vitest";
import { getRouterProviderSnippets } from "./generate.js";

const CHAT = { id: "Qwen/Qwen2.5-7B-Instruct", pipeline_tag: "text-generation", tags: ["conversational"] };
const options = { hubUrl: "https://hub.example.org", routerUrl: "https://hub.example.org/router" };

describe("getRouterProviderSnippets", () => {
  it("renders the clients that call the router's /v1 as written, naming the provider in model", () => {
    const snippets = getRouterProviderSnippets(CHAT as ModelData, undefined, "acme/gpu", options);
    expect(snippets.map((snippet) => `${snippet.language}/${snippet.client}`)).toEqual([
      "python/requests",
      "python/openai",
      "js/openai",
      "js/fetch",
      "sh/curl",
    ]);
    for (const snippet of snippets) {
      expect(snippet.content).toContain("Qwen/Qwen2.5-7B-Instruct:acme/gpu");
      expect(snippet.content).toContain("https://hub.example.org/router/v1");
      expect(snippet.content).toContain("HF_TOKEN");
      // The hosted provider whose request it starts from is never named.
      expect(snippet.content).not.toContain("together");
    }
  });

  it("streams when asked, and writes a hub token in only when told to", () => {
    const [python] = getRouterProviderSnippets(CHAT as ModelData, "hf_inline_0123", "gpu-1", {
      ...options,
      streaming: true,
      inlineToken: true,
    }).filter((snippet) => snippet.client === "openai");
    expect(python?.content).toContain("stream=True");
    expect(python?.content).toContain("hf_inline_0123");
    expect(python?.content).toContain(":gpu-1");
  });

  it("refuses a provider's key, and has nothing for a model that does not chat", () => {
    expect(() => getRouterProviderSnippets(CHAT as ModelData, "sk-provider", "acme/gpu")).toThrow(
      /hub access token/,
    );
    const embedder = { id: "BAAI/bge-small-en-v1.5", pipeline_tag: "feature-extraction" } as ModelData;
    expect(getRouterProviderSnippets(embedder, undefined, "acme/gpu", options)).toEqual([]);
  });
});
