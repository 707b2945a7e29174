import type { ImageOutputType, InferenceTask, JsonObject, Logger } from "../base-types.js";
import type { CallContext } from "../http/call-context.js";

/** What a provider's task hooks see when building a request. Pure data; no I/O. */
export interface RequestContext {
  task: InferenceTask;
  /** The provider's own model id (after hub mapping). */
  providerModelId: string;
  /** The hub model id, when known. */
  model: string | undefined;
  /** Task inputs and parameters, binary values already encoded as the task spec asked. */
  args: JsonObject;
  stream: boolean;
  /** True when the call goes through the hub's router rather than straight to the provider. */
  routed: boolean;
  /**
   * True when the provider is reached under a path prefix on a shared host (the router, or a base URL
   * override such as a local simulator) rather than on its own hosts.
   */
  sharedHost: boolean;
  /** True when the call targets a caller-given endpointUrl (TGI, vLLM, llama.cpp...). */
  endpoint: boolean;
  /**
   * The model is a LoRA adapter (its hub mapping says `adapter: "lora"`): the URL of its weights on the hub,
   * for providers that apply the adapter to the base model they run (fal-ai's `loras`).
   */
  loraWeightsUrl?: string;
}

/** I/O a response hook may need for follow-up calls (status polling, result and media downloads). */
export interface FollowUp {
  /** GET JSON through the same retry/abort/timeout machinery as the main request. */
  getJson(url: string): Promise<unknown>;
  /** GET a binary body (media download). `data:` URLs are decoded without a network call. */
  getBlob(url: string): Promise<Blob>;
  /** POST JSON (rarely needed: job submission follow-ups). */
  postJson(url: string, body: unknown): Promise<unknown>;
  /** The one polling loop, bound to the call's signal and job deadline. */
  poll<T>(step: PollStep<T>, schedule: { intervalMs: number; maxAttempts?: number }): Promise<T>;
  logger: Logger | undefined;
}

/** One polling step: return `{ done: true, value }` to stop, `{ done: false }` to wait and retry. */
export type PollStep<T> = (attempt: number) => Promise<{ done: true; value: T } | { done: false }>;

export interface ResponseContext extends RequestContext {
  /** A registry id (`InferenceProvider`; typed as a string so that this file need not import the registry). */
  provider: string;
  /** Base that follow-up URLs are rebased onto: the router prefix or the provider's base URL. */
  base: string;
  /** Requested shape for media outputs (text-to-image etc.). */
  outputType: ImageOutputType | undefined;
  /** The call's context (signal, retries, deadline), for follow-up calls (protocols/follow-up.ts). */
  call: CallContext;
  /** The main request's headers (follow-ups send its auth and provider headers). */
  headers: Record<string, string>;
}

/** How the request body carries binary inputs (Blob at `inputs` or `inputs.image`). */
export type InputEncoding = "raw" | "base64" | "data-url";

/** One task as one provider serves it: mostly data, plus small hooks. */
export interface TaskSpec {
  /** Path appended to the provider's base URL (or to `{routerUrl}/{provider}`). Starts with "/". */
  path(ctx: RequestContext): string;
  /** The JSON body. Not called when the input is sent raw (binary body). */
  body?(ctx: RequestContext): unknown;
  /** How Blob inputs are encoded; "raw" sends the bytes as the body. Default "raw" for binary tasks. */
  inputEncoding?(args: JsonObject): InputEncoding;
  /** Encodes the Blob inputs as `inputEncoding` says: set with it, by protocols/input-encoding.ts. */
  encodeInputs?(args: JsonObject): Promise<JsonObject>;
  /**
   * Direct calls only: a base URL other than the provider's for this task (fal.ai's queue host). Ignored
   * when routed or when the caller overrides the provider's base URL.
   */
  directBaseUrl?: string;
  /** Extra request headers (e.g. Replicate's `Prefer: wait`). */
  headers?(ctx: RequestContext): Record<string, string>;
  /** Whether the task can stream (SSE). */
  streams?: boolean;
  /** Checks / maps one streamed JSON event (when `streams`). */
  parseEvent?(event: unknown): unknown;
  /** Turns the provider's answer (parsed JSON, or a Blob for media answers) into the task output. */
  parse(response: unknown, ctx: ResponseContext): Promise<unknown> | unknown;
}

/** Where a route's path is on the provider (`{model}` stands for the provider's model id). */
interface PathOption {
  path?: string;
}

/**
 * How a provider serves one task, as data: which protocol (a reusable adapter from protocols/) and that
 * protocol's own options, typed per protocol. Paths may contain `{model}` (the provider's model id).
 */
export type TaskRoute =
  | ({ protocol: "openai-chat"; modelInBody?: "endpoint-only" } & PathOption)
  | ({ protocol: "openai-completions" } & PathOption)
  | ({ protocol: "chat-text-generation" } & PathOption)
  | ({ protocol: "openai-embeddings" } & PathOption)
  /** `voiceFor`: a default voice for provider model ids containing the key (lower case). */
  | ({ protocol: "openai-speech"; voiceFor?: Readonly<Record<string, string>> } & PathOption)
  | ({ protocol: "openai-images"; responseFormat?: "b64_json" | "base64" } & PathOption)
  | ({ protocol: "hyperbolic-images" } & PathOption)
  /** Together's image edits: its images endpoint with the image as a data URL (`image_url` or `reference_images`). */
  | ({ protocol: "together-image-edit" } & PathOption)
  | { protocol: "hf-pipeline" }
  /**
   * `input`: the body field carrying `inputs`, or `inputFor` the field of provider model ids starting with
   * one of its keys; `output`: the answer's media field, or "text".
   */
  | {
      protocol: "fal-sync";
      input?: string;
      inputFor?: Readonly<Record<string, string>>;
      output?: string;
      syncMode?: boolean;
    }
  /**
   * `inputList`: a body field that also carries `inputs`, as a one-item list (`image_urls`); `output` also
   * "audio-sources" (audio-to-audio: `audio.url` as the hub's `[{label, blob, content-type}]`) or "mask"
   * (image-segmentation: `image.url` as `[{label, mask, score}]`); `syncMode`: media inline as data URLs.
   */
  | { protocol: "fal-queue"; input?: string; inputList?: string; output?: string; syncMode?: boolean }
  /** `output: "text"`: the prediction's output is a transcript (a string, or `{transcription}`), not media. */
  | { protocol: "replicate-prediction"; input?: string; output?: "text" }
  | { protocol: "bfl-job" }
  | { protocol: "novita-video" }
  | { protocol: "zai-image-job" }
  /** `imageInput`: the image (a data URL) is the first keyframe and the prompt comes from `parameters`. */
  | { protocol: "together-video"; imageInput?: boolean }
  | { protocol: "zai-layout-parsing" }
  /** `imageInput`: the base64 `inputs` go as `image` rather than `prompt`. */
  | { protocol: "wavespeed-job"; imageInput?: boolean };

export type Protocol = TaskRoute["protocol"];
export type RouteOf<P extends Protocol> = Extract<TaskRoute, { protocol: P }>;

/** Builds the hooks of a task route. Task functions pass only the factories they need (tree-shaking). */
export type ProtocolFactory<P extends Protocol = Protocol> = (
  route: RouteOf<P>,
  task: InferenceTask,
) => TaskSpec;
export type ProtocolTable = Readonly<{ [P in Protocol]?: ProtocolFactory<P> }>;

export interface ProviderConfig {
  /** The registry key this entry is filed under (registry.test.ts checks that the two agree). */
  id: string;
  /** The provider's name as people know it, for every label a UI or a message shows. */
  displayName: string;
  /** The provider's own API base, used for direct calls with the provider's key. */
  baseUrl: string;
  /** Environment variable that conventionally holds the provider's key (for snippets and docs only). */
  apiKeyEnv: string;
  /** Auth header for the provider's own key. Default: `Authorization: Bearer <key>`. */
  auth?: { header: string; scheme?: string };
  /** Headers the provider wants on every call. */
  headers?: Record<string, string>;
  /** The provider's model ids must start with "<provider>/" (the openai rule). */
  modelPrefixRequired?: boolean;
  /** This provider refuses hub tokens (the openai rule): only its own key works. */
  rejectsHubToken?: boolean;
  tasks: Partial<Record<InferenceTask, TaskRoute>>;
}
