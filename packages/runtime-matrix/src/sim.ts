/** provider-sim as the runtime matrix needs it: the models smoke/checks.mjs calls, and a provider that never answers in time. */
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import { MATRIX_MODELS } from "../smoke/checks.mjs";

const { chat, image, slowChat } = MATRIX_MODELS;

export async function startMatrixSim(): Promise<ProviderSim> {
  const sim = await startProviderSim({
    streamChunks: 6,
    models: [
      {
        id: chat.id,
        pipeline_tag: "text-generation",
        tags: ["conversational"],
        hfInference: false,
        inferenceProviderMapping: {
          together: { status: "live", providerId: chat.providerId, task: "conversational" },
        },
      },
      {
        id: image.id,
        pipeline_tag: "text-to-image",
        hfInference: false,
        inferenceProviderMapping: {
          together: { status: "live", providerId: image.providerId, task: "text-to-image" },
        },
      },
      {
        id: slowChat.id,
        pipeline_tag: "text-generation",
        tags: ["conversational"],
        hfInference: false,
        inferenceProviderMapping: {
          [slowChat.provider]: { status: "live", providerId: slowChat.providerId, task: "conversational" },
        },
      },
    ],
  });
  // Every answer of that provider comes after 10 s: only the caller's abort ends the call sooner.
  sim.setFault({ kind: "delay", ms: 10_000, provider: slowChat.provider, times: Number.POSITIVE_INFINITY });
  return sim;
}
