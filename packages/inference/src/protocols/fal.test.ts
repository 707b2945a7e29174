import { describe, expect, it } from "vitest";
import { buildRequest } from "../routing/build-request.js";
import { loraWeightsUrl } from "../routing/resolve.js";

const routed = { accessToken: "hf_x", routerUrl: "http://hub/router" } as const;

describe("fal-ai request bodies", () => {
  it("image-text-to-image sends the image as image_url and image_urls, the prompt from parameters", () => {
    const { url, body } = buildRequest({
      ...routed,
      provider: "fal-ai",
      task: "image-text-to-image",
      providerModelId: "fal-ai/qwen-image-edit",
      args: { inputs: "data:image/png;base64,AAAA", parameters: { prompt: "make it blue", seed: 3 } },
    });
    expect(url).toBe("http://hub/router/fal-ai/fal-ai/qwen-image-edit?_subdomain=queue");
    expect(body).toEqual({
      prompt: "make it blue",
      seed: 3,
      image_url: "data:image/png;base64,AAAA",
      image_urls: ["data:image/png;base64,AAAA"],
    });
  });

  it("image-text-to-video without an image sends the prompt alone", () => {
    const { body } = buildRequest({
      ...routed,
      provider: "fal-ai",
      task: "image-text-to-video",
      providerModelId: "fal-ai/some-i2v",
      args: { parameters: { prompt: "waves" } },
    });
    expect(JSON.parse(JSON.stringify(body))).toEqual({ prompt: "waves" });
  });

  it("text-to-speech sends the text as Kokoro's `prompt`, and as `text` to fal's other speech apps", () => {
    const speak = (providerModelId: string) =>
      buildRequest({
        ...routed,
        provider: "fal-ai",
        task: "text-to-speech",
        providerModelId,
        args: { inputs: "Hello there", parameters: { voice: "af_heart" } },
      }).body;
    expect(speak("fal-ai/kokoro/american-english")).toEqual({ voice: "af_heart", prompt: "Hello there" });
    expect(speak("fal-ai/kokoro")).toEqual({ voice: "af_heart", prompt: "Hello there" });
    expect(speak("fal-ai/dia-tts")).toEqual({ voice: "af_heart", text: "Hello there" });
  });

  it("a LoRA adapter adds its weights, and the generic LoRA app its SDXL base", () => {
    const weights = loraWeightsUrl("http://hub/", "me/my lora", "dir/w 1.safetensors");
    expect(weights).toBe("http://hub/me/my lora/resolve/main/dir/w%201.safetensors");
    const flux = buildRequest({
      ...routed,
      provider: "fal-ai",
      task: "text-to-image",
      providerModelId: "fal-ai/flux-lora",
      args: { inputs: "a cat" },
      loraWeightsUrl: weights,
    });
    expect(flux.body).toMatchObject({ prompt: "a cat", loras: [{ path: weights, scale: 1 }] });
    expect(flux.body).not.toHaveProperty("model_name");
    const sdxl = buildRequest({
      ...routed,
      provider: "fal-ai",
      task: "text-to-image",
      providerModelId: "fal-ai/lora",
      args: { inputs: "a cat" },
      loraWeightsUrl: weights,
    });
    expect(sdxl.body).toMatchObject({ model_name: "stabilityai/stable-diffusion-xl-base-1.0" });
  });
});
