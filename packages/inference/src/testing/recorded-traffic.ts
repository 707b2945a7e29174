import { readFileSync } from "node:fs";
import type { InferenceProvider, InferenceTask } from "../types.js";

/**
 * The recorded provider traffic (March 2025), read from the one extraction in the repository: the
 * provider simulator's fixture (packages/provider-sim/scripts/extract-recorded-traffic.ts), which also
 * names each exchange's provider from the one host-to-provider table.
 */
const RECORDING_FILE = new URL(
  "../../../provider-sim/src/__fixtures__/recorded-traffic.json",
  import.meta.url,
);

/** One exchange as the replay test reads it. */
export interface Exchange {
  id: string;
  url: string;
  /** The provider whose API the URL is (router paths name theirs); null for other hosts. */
  provider: string | null;
  method: string;
  /** "" when the recording kept no body (binary upload). */
  requestBody: string;
  status: number;
  /** content-type and the few headers clients read (x-request-id, retry-after). */
  responseHeaders: Record<string, string>;
  responseBody: string;
}

interface RecordingEntry {
  id: string;
  url: string;
  provider: string | null;
  method: string;
  requestBody: string | null;
  status: number;
  responseContentType: string;
  responseHeaders: Record<string, string>;
  responseBody: string;
}

let cache: Exchange[] | undefined;
export function recordedTraffic(): Exchange[] {
  cache ??= (JSON.parse(readFileSync(RECORDING_FILE, "utf8")) as RecordingEntry[]).map((entry) => ({
    id: entry.id,
    url: entry.url,
    provider: entry.provider,
    method: entry.method,
    requestBody: entry.requestBody ?? "",
    status: entry.status,
    responseHeaders: { "content-type": entry.responseContentType, ...entry.responseHeaders },
    responseBody: entry.responseBody,
  }));
  return cache;
}

const HUB_HOSTS = new Set(["huggingface.co", "router.huggingface.co"]);

/** The pipeline of each hf-inference model in the recording (read off its answers). */
export const HF_MODEL_TASKS: Record<string, InferenceTask> = {
  "google/vit-base-patch16-224": "image-classification",
  "facebook/wav2vec2-large-960h-lv60-self": "automatic-speech-recognition",
  "superb/hubert-large-superb-er": "audio-classification",
  "stabilityai/stable-diffusion-2": "text-to-image",
  "facebook/detr-resnet-50": "object-detection",
  "facebook/detr-resnet-50-panoptic": "image-segmentation",
  "nlpconnect/vit-gpt2-image-captioning": "image-to-text",
  "impira/layoutlm-document-qa": "document-question-answering",
  "naver-clova-ix/donut-base-finetuned-docvqa": "document-question-answering",
  "dandelin/vilt-b32-finetuned-vqa": "visual-question-answering",
  "lllyasviel/sd-controlnet-canny": "image-to-image",
  "lllyasviel/sd-controlnet-depth": "image-to-image",
  "speechbrain/sepformer-wham": "audio-to-audio",
  "openai/clip-vit-large-patch14-336": "zero-shot-image-classification",
  "distilbert-base-uncased": "fill-mask",
  "bert-base-uncased": "fill-mask",
  "google-bert/bert-base-uncased": "fill-mask",
  "this-model-does-not-exist-123": "fill-mask",
  "openai-community/gpt2": "text-generation",
  gpt2: "text-generation",
  "google/flan-t5-xxl": "text-generation",
  "meta-llama/Llama-3.2-3B": "text-generation",
  "OpenAssistant/oasst-sft-4-pythia-12b-epoch-3.5": "text-generation",
  "deepset/roberta-base-squad2": "question-answering",
  "google/tapas-base-finetuned-wtq": "table-question-answering",
  "distilbert-base-uncased-finetuned-sst-2-english": "text-classification",
  "google/pegasus-xsum": "summarization",
  "facebook/bart-large-cnn": "summarization",
  "dbmdz/bert-large-cased-finetuned-conll03-english": "token-classification",
  "t5-base": "translation",
  "facebook/bart-large-mnli": "zero-shot-classification",
  "espnet/kan-bayashi_ljspeech_vits": "text-to-speech",
  "scikit-learn/Fish-Weight": "tabular-regression",
  "vvmnnnkv/wine-quality": "tabular-classification",
  "microsoft/DialoGPT-large": "conversational",
  "sentence-transformers/paraphrase-xlm-r-multilingual-v1": "sentence-similarity",
  "sentence-transformers/distilbert-base-nli-mean-tokens": "feature-extraction",
  "facebook/bart-base": "feature-extraction",
};

/** A recorded request this client issues, as a call to make. */
export interface ReplayCall {
  exchange: Exchange;
  provider: InferenceProvider;
  task: InferenceTask;
  /** Hub model id passed to the client. */
  model: string;
  /** The provider's own id (what the fake hub maps `model` to). */
  providerModelId: string;
  args: Record<string, unknown>;
  stream: boolean;
  accessToken: string;
  /** The recording kept no body (binary upload or stripped base64): only method and URL compare. */
  bodyRecorded: boolean;
}

export type Classified =
  | { kind: "call"; call: ReplayCall }
  | { kind: "skip"; exchange: Exchange; reason: string };

const omit = (o: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));

/**
 * Which recorded requests this client can issue, and with which call. Requests made by older clients
 * with fields this client never sends (and a few malformed ones) are skipped, each with its reason.
 */
export function classify(exchange: Exchange, all: Exchange[]): Classified {
  const skip = (reason: string): Classified => ({ kind: "skip", exchange, reason });
  if (exchange.method !== "POST")
    return skip("follow-up GET (status poll or media download), served to the job that makes it");
  const url = new URL(exchange.url);
  if (url.pathname.startsWith("/api/inference-proxy/"))
    return skip("legacy hub inference-proxy URL, replaced by the router");
  if (url.host === "api.mistral.ai") return skip("Mistral is not a provider of this client");
  if (url.pathname === "/" || url.pathname === "")
    return skip("request to a bare host (misconfigured base URL)");
  let body: Record<string, unknown> | undefined;
  if (exchange.requestBody) body = JSON.parse(exchange.requestBody) as Record<string, unknown>;
  if (body && "options" in body) return skip("legacy `options` field (older client)");
  if (body && "provider" in body) return skip("legacy: provider name leaked into the body (older client)");

  const router = url.host === "router.huggingface.co" && url.pathname.startsWith("/hf-inference/");
  // A provider's own API host; through the hub, only hf-inference's router paths are this client's.
  const direct = HUB_HOSTS.has(url.host) ? undefined : (exchange.provider as InferenceProvider | null);
  const provider: InferenceProvider | undefined = router ? "hf-inference" : (direct ?? undefined);
  if (!provider) return skip(`unknown host ${url.host}`);
  const accessToken = provider === "hf-inference" ? "hf_replay" : "replay-provider-key";
  const base = {
    exchange,
    provider,
    accessToken,
    bodyRecorded: body !== undefined,
    stream: body?.stream === true,
  };

  if (provider === "hf-inference") {
    if (body && "model" in body) return skip("legacy: model id sent in an hf-inference body (older client)");
    const chat = url.pathname.match(/^\/hf-inference\/models\/(.+)\/v1\/chat\/completions$/);
    if (chat) {
      return call({
        ...base,
        task: "conversational",
        model: chat[1]!,
        args: omit(body ?? {}, ["model", "stream"]),
      });
    }
    const pipeline = url.pathname.match(/^\/hf-inference\/pipeline\/([^/]+)\/(.+)$/);
    const model = pipeline ? pipeline[2]! : url.pathname.replace(/^\/hf-inference\/models\//, "");
    const task = (pipeline?.[1] as InferenceTask | undefined) ?? HF_MODEL_TASKS[model];
    if (!task) return skip(`no known task for hf-inference model ${model}`);
    if (!pipeline && (task === "feature-extraction" || task === "sentence-similarity")) {
      return skip(`${task} via /models/ (older client); this client uses /pipeline/${task}/ (spec §7)`);
    }
    return call({ ...base, task, model, args: body ? omit(body, ["stream"]) : placeholderArgs(task) });
  }

  if (!body) {
    // fal.ai speech recognition: the audio (a data URL inside JSON) was stripped from the recording.
    return call({
      ...base,
      task: "automatic-speech-recognition",
      model: url.pathname.slice(1),
      args: placeholderArgs("automatic-speech-recognition", "audio/mpeg"),
    });
  }
  if ("inputs" in body) return skip("legacy: hub-style `inputs` field sent to a provider API (older client)");

  if (provider === "replicate") {
    if ("model" in body) return skip("legacy: `model` field in a Replicate body (older client)");
    const input = (body.input ?? {}) as Record<string, unknown>;
    if ("inputs" in input) return skip("legacy: `inputs` inside Replicate's input (older client)");
    const byPath = url.pathname.match(/^\/v1\/models\/(.+)\/predictions$/)?.[1];
    const version = body.version as string | undefined;
    const owner = byPath ?? replicateModelOfVersion(version, all);
    const text = "text" in input || owner === "jaaari/kokoro-82m";
    const task: InferenceTask = text ? "text-to-speech" : "text-to-image";
    const providerModelId = byPath ?? `${owner}:${version}`;
    const inputs = input[text ? "text" : "prompt"];
    const parameters = omit(input, ["text", "prompt"]);
    return call({
      ...base,
      task,
      model: `hub/${providerModelId}`,
      providerModelId,
      args: { inputs, ...(Object.keys(parameters).length ? { parameters } : {}) },
    });
  }

  const path = url.pathname;
  if (path.endsWith("/chat/completions")) {
    if (!("model" in body)) return skip("recorded without a model (the provider rejected it)");
    if ("prompt" in body) return skip("legacy text-generation body sent to a chat route (older client)");
    const model = provider === "openai" ? `openai/${body.model}` : `hub/${body.model}`;
    return call({
      ...base,
      task: "conversational",
      model,
      providerModelId: String(body.model),
      args: omit(body, ["model", "stream"]),
    });
  }
  if (path.endsWith("/completions")) {
    const { prompt, model, max_tokens, ...rest } = body;
    const parameters = { ...rest, ...(max_tokens === undefined ? {} : { max_new_tokens: max_tokens }) };
    return call({
      ...base,
      task: "text-generation",
      model: `hub/${model}`,
      providerModelId: String(model),
      args: { inputs: prompt, parameters },
    });
  }
  if (path.endsWith("/images/generations")) {
    if (provider === "hyperbolic" && "model" in body)
      return skip("sent `model` where Hyperbolic wants `model_name` (older client)");
    const providerModelId = String(body.model ?? body.model_name);
    const parameters = omit(body, ["prompt", "model", "model_name", "response_format"]);
    return call({
      ...base,
      task: "text-to-image",
      model: `hub/${providerModelId}`,
      providerModelId,
      args: withParameters(body.prompt, parameters),
    });
  }
  if (provider === "fal-ai") {
    if ("response_format" in body)
      return skip("`response_format` is not a fal.ai parameter (older client); this client sends sync_mode");
    const providerModelId = path.slice(1);
    return call({
      ...base,
      task: "text-to-image",
      model: `hub/${providerModelId}`,
      providerModelId,
      args: withParameters(body.prompt, omit(body, ["prompt", "sync_mode"])),
    });
  }
  if (provider === "black-forest-labs") {
    const providerModelId = path.replace(/^\/v1\//, "");
    return call({
      ...base,
      task: "text-to-image",
      model: `hub/${providerModelId}`,
      providerModelId,
      args: withParameters(body.prompt, omit(body, ["prompt"])),
    });
  }
  return skip(`no route of this client matches ${url.pathname}`);
}

function withParameters(inputs: unknown, parameters: Record<string, unknown>) {
  return Object.keys(parameters).length ? { inputs, parameters } : { inputs };
}

function call(c: Omit<ReplayCall, "providerModelId"> & { providerModelId?: string }): Classified {
  return { kind: "call", call: { ...c, providerModelId: c.providerModelId ?? c.model } };
}

function replicateModelOfVersion(version: string | undefined, all: Exchange[]): string {
  for (const e of all) {
    if (!e.url.startsWith("https://api.replicate.com") || !e.responseBody.includes(`"version":"${version}"`))
      continue;
    const model = (JSON.parse(e.responseBody) as { model?: string }).model;
    if (model) return model;
  }
  return "unknown/model";
}

const blob = (type: string) => new Blob([new Uint8Array([0x66, 0x4c, 0x61, 0x43])], { type });

/** Inputs for a recording whose body was not kept: any file of the right kind will do. */
export function placeholderArgs(task: InferenceTask, audioType = "audio/flac"): Record<string, unknown> {
  switch (task) {
    case "document-question-answering":
    case "visual-question-answering":
      return { inputs: { image: blob("image/png"), question: "How many?" } };
    case "zero-shot-image-classification":
      return { inputs: blob("image/png"), parameters: { candidate_labels: ["animal", "car"] } };
    case "automatic-speech-recognition":
    case "audio-classification":
    case "audio-to-audio":
      return { inputs: blob(audioType) };
    case "text-to-image":
      return { inputs: "a picture" };
    case "image-to-image":
      return { inputs: blob("image/png"), parameters: { prompt: "a picture" } };
    default:
      return { inputs: blob("image/png") };
  }
}
