import type { ProtocolTable } from "../providers/types.js";
import { bflJob, novitaVideo, togetherVideo, wavespeedJob, zaiImageJob } from "./async-jobs.js";
import { falQueue, falSync } from "./fal.js";
import { hfPipeline } from "./hf-pipeline.js";
import { openAiChat, openAiCompletions, textGenerationViaChat } from "./openai-chat.js";
import {
  hyperbolicImages,
  openAiEmbeddings,
  openAiImages,
  openAiSpeech,
  togetherImageEdit,
} from "./openai-media.js";
import { replicatePrediction } from "./replicate.js";
import { zaiLayoutParsing } from "./zai-layout.js";

/**
 * Every protocol, by the id provider routes use. The request builder and the raw `request` need them all;
 * each task function imports only the few its task uses, so a chat-only bundle carries no media code.
 */
export const ALL_PROTOCOLS: ProtocolTable = {
  "openai-chat": openAiChat,
  "openai-completions": openAiCompletions,
  "chat-text-generation": textGenerationViaChat,
  "openai-embeddings": openAiEmbeddings,
  "openai-speech": openAiSpeech,
  "openai-images": openAiImages,
  "hyperbolic-images": hyperbolicImages,
  "together-image-edit": togetherImageEdit,
  "hf-pipeline": hfPipeline,
  "fal-sync": falSync,
  "fal-queue": falQueue,
  "replicate-prediction": replicatePrediction,
  "bfl-job": bflJob,
  "novita-video": novitaVideo,
  "wavespeed-job": wavespeedJob,
  "zai-image-job": zaiImageJob,
  "together-video": togetherVideo,
  "zai-layout-parsing": zaiLayoutParsing,
};
