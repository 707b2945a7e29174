import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { audioToAudio } from "../tasks/audio-to-audio.js";
import { imageSegmentation } from "../tasks/image-segmentation.js";
import { imageToImage } from "../tasks/image-to-image.js";
import { imageToVideo } from "../tasks/image-to-video.js";
import type { InferenceTask } from "../types.js";

/**
 * What the contract suite does not look at for the queue and job pairs added on 2026-11-29: the hub's task
 * outputs made from fal's media (audio-to-audio, image-segmentation) and Together's request bodies.
 */

const png = new Blob([Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10])], { type: "image/png" });
const wav = new Blob([new Uint8Array(64)], { type: "audio/wav" });

const MODELS: Array<[string, string, InferenceTask, string]> = [
  ["t/a2a", "fal-ai", "audio-to-audio", "fal-ai/elevenlabs/audio-isolation"],
  ["t/seg", "fal-ai", "image-segmentation", "fal-ai/birefnet"],
  ["t/kontext", "together", "image-to-image", "black-forest-labs/FLUX.1-kontext-pro"],
  ["t/flux2", "together", "image-to-image", "black-forest-labs/FLUX.2-dev"],
  ["t/i2v", "together", "image-to-video", "Wan-AI/Wan2.2-I2V-A14B"],
];

let sim: ProviderSim;
beforeAll(async () => {
  sim = await startProviderSim({
    jobSteps: 1,
    hubTokens: ["hf_test"],
    models: MODELS.map(([id, provider, task, providerId]) => ({
      id,
      pipeline_tag: task,
      tags: [],
      inferenceProviderMapping: { [provider]: { status: "live" as const, providerId, task } },
    })),
  });
});
afterAll(() => sim?.close());

const options = () => ({ hubUrl: sim.url, routerUrl: sim.url, mappingTtlMs: 0 });
/** The JSON body of the first POST naming the provider model in its path or body. */
const sentTo = (providerId: string): Record<string, unknown> => {
  const request = sim.requests.find(
    (r) => r.method === "POST" && (r.path.includes(providerId) || r.bodyText.includes(providerId)),
  );
  expect(request, `a request for ${providerId}`).toBeDefined();
  return request!.json as Record<string, unknown>;
};

describe("fal-ai and Together media jobs", () => {
  it("fal audio-to-audio: the file as a data URL, the result's audio as [{label, blob, content-type}]", async () => {
    const output = await audioToAudio(
      { model: "t/a2a", provider: "fal-ai", accessToken: "hf_test", inputs: wav },
      options(),
    );
    expect(output).toEqual([{ label: "speech", blob: expect.any(String), "content-type": "audio/wav" }]);
    expect(atob(output[0]!.blob).slice(0, 4)).toBe("RIFF");
    expect(sentTo("audio-isolation").audio_url).toMatch(/^data:audio\/wav;base64,/);
  });

  it("fal image-segmentation: sync mode, the mask (inline) as [{label, mask, score}]", async () => {
    const output = await imageSegmentation(
      { model: "t/seg", provider: "fal-ai", accessToken: "hf_test", inputs: png },
      options(),
    );
    expect(output).toEqual([{ label: "mask", mask: expect.any(String), score: 1 }]);
    expect(atob(output[0]!.mask).slice(1, 4)).toBe("PNG");
    expect(sentTo("birefnet")).toMatchObject({
      sync_mode: true,
      image_url: expect.stringMatching(/^data:image\/png/),
    });
  });

  it("Together image edits: image_url for FLUX.1 Kontext, reference_images otherwise; steps renamed", async () => {
    for (const model of ["t/kontext", "t/flux2"]) {
      const output = await imageToImage(
        {
          model,
          provider: "together",
          accessToken: "hf_test",
          inputs: png,
          parameters: { prompt: "a tiger", num_inference_steps: 4 },
        },
        options(),
      );
      expect(output.size).toBeGreaterThan(0);
    }
    const kontext = sentTo("FLUX.1-kontext-pro");
    expect(kontext).toMatchObject({ prompt: "a tiger", steps: 4, response_format: "base64" });
    expect(kontext.image_url).toMatch(/^data:image\/png;base64,/);
    expect(kontext).not.toHaveProperty("num_inference_steps");
    const flux2 = sentTo("FLUX.2-dev");
    expect(flux2.reference_images).toEqual([expect.stringMatching(/^data:image\/png;base64,/)]);
    expect(flux2).not.toHaveProperty("image_url");
  });

  it("Together image-to-video: the image as the first keyframe, the prompt from parameters", async () => {
    const video = await imageToVideo(
      {
        model: "t/i2v",
        provider: "together",
        accessToken: "hf_test",
        inputs: png,
        parameters: { prompt: "dance" },
      },
      options(),
    );
    expect(video.size).toBeGreaterThan(0);
    expect(sentTo("Wan2.2-I2V-A14B")).toEqual({
      model: "Wan-AI/Wan2.2-I2V-A14B",
      frame_images: [{ input_image: expect.stringMatching(/^data:image\/png;base64,/), frame: "first" }],
      prompt: "dance",
    });
  });
});
