import { randomUUID } from "node:crypto";
import type { SimContext } from "../context.js";
import { JOB_FAULTS } from "../faults.js";
import type { JobOutcome } from "../jobs.js";
import type { MediaKind } from "../media.js";

/** How the next job ends: the request's or the queue's job fault, else success. */
export function nextJobOutcome(context: SimContext): JobOutcome {
  const fault = context.takeFault(JOB_FAULTS);
  if (fault?.kind === "job-fails") return { kind: "fail", message: fault.message ?? "Simulated job failure" };
  if (fault?.kind === "job-never-finishes") return { kind: "never" };
  return { kind: "succeed" };
}

/** A URL on the sim that serves a small valid file of this kind. */
export function simMediaUrl(context: SimContext, kind: MediaKind, name = randomUUID()): string {
  const extension = kind === "jpeg" ? "jpg" : kind;
  return `${context.simUrl}/media/${context.provider.name}/${name}.${extension}`;
}

/**
 * The task a provider model id serves, from the registry's mappings; otherwise a guess from its name, so
 * unregistered models still get a plausible reply.
 */
export function taskOfProviderModel(context: SimContext, providerModel: string): string {
  const provider = context.provider.name;
  for (const model of context.registry.list()) {
    const mapping = context.registry.mappingsOf(model)[provider];
    if (!mapping) continue;
    if (mapping.providerId === providerModel || mapping.providerId.split(":")[1] === providerModel) {
      return mapping.task;
    }
    if (mapping.providerId.split(":")[0] === providerModel) return mapping.task;
  }
  const name = providerModel.toLowerCase();
  if (/whisper|wizper|speech-to-text|asr/.test(name)) return "automatic-speech-recognition";
  if (/i2v|image-to-video/.test(name)) return "image-to-video";
  if (/video|mochi|wan|kling|ltx|hunyuan|veo|t2v/.test(name)) return "text-to-video";
  if (/kokoro|tts|speech|voice|audio|music/.test(name)) return "text-to-speech";
  if (/kontext|image-to-image|img2img|edit/.test(name)) return "image-to-image";
  return "text-to-image";
}

/** The media kind a generation task produces. */
export function mediaKindOfTask(task: string): MediaKind {
  if (task.endsWith("-to-video")) return "mp4";
  if (task === "text-to-speech" || task === "text-to-audio") return "wav";
  return "png";
}
