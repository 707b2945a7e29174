// The request builder alone: the package's main entry carries the HTTP client as well (retries, streaming,
// polling), which a generator that never sends a request does not need to load.
import {
  type BuiltRequest,
  buildRequest,
  DEFAULT_HUB_URL,
  DEFAULT_ROUTER_URL,
  defaultLogger,
  FAL_AUDIO_CONTENT_TYPES,
  getProviderConfig,
  type InferenceProvider,
  type InferenceTask,
  providerTaskProtocol,
  providerTaskSupported,
} from "@modelhub/inference/requests";
import type { ModelData, PipelineType } from "@modelhub/tasks";
// The entry with only the inputs: the package's main entry carries every library and app snippet.
import {
  CHAT_DEFAULT_MAX_TOKENS,
  type ChatMessage,
  getModelInputExample,
  isConversational,
} from "@modelhub/tasks/inputs";
import { HUB_TOKEN_SENTINEL, PROVIDER_TOKEN_SENTINEL, type TokenSource } from "./access-token.js";
import { hubClientSupports } from "./client-support.js";
import { buildTemplateContext, type TemplateContext } from "./context.js";
import { SnippetError } from "./errors.js";
import { falQueueVariables } from "./fal-queue.js";
import { hubClientExtraBody } from "./hub-client-body.js";
import { HF_JS_METHODS, HF_PYTHON_METHODS } from "./methods.js";
import { binaryOutputFile, needsMethodName, selectTemplate } from "./select-template.js";
import { findTemplate, loadTemplate } from "./templates.js";
import {
  CLIENT_INSTALL,
  type InferenceSnippet,
  SNIPPET_CLIENTS,
  SNIPPET_LANGUAGES,
  type SnippetClient,
  type SnippetLanguage,
  type SnippetLogger,
  type SnippetOptions,
} from "./types.js";
import { wavespeedJobVariables } from "./wavespeed-job.js";

/** Marks where a local file's bytes go in a request built for a snippet (never sent anywhere). */
export const FILE_PLACEHOLDER = "<file bytes>";

/** fal.ai transcribes only some audio types (the client's own rule): its snippets read a WAV sample. */
const FAL_AUDIO_SAMPLE = { fileName: "sample1.wav", contentType: "audio/wav" };

function sampleFileFor(provider: InferenceProvider, file: { fileName: string; contentType: string }) {
  if (
    provider === "fal-ai" &&
    file.contentType.startsWith("audio/") &&
    !FAL_AUDIO_CONTENT_TYPES.includes(file.contentType)
  ) {
    return FAL_AUDIO_SAMPLE;
  }
  return file;
}

interface Call {
  task: PipelineType | "conversational";
  inputKind: "json" | "file" | "chat";
  args: Record<string, unknown>;
  chatArgs: Record<string, unknown>;
  file: { fileName: string; contentType: string } | undefined;
}

function chatArguments(messages: readonly ChatMessage[], options: SnippetOptions): Record<string, unknown> {
  const args: Record<string, unknown> = {
    messages,
    max_tokens: options.max_tokens ?? CHAT_DEFAULT_MAX_TOKENS,
  };
  // Spec §9: shown only when set, and 0 is a value.
  if (options.temperature !== undefined) args.temperature = options.temperature;
  if (options.top_p !== undefined) args.top_p = options.top_p;
  return args;
}

function describeCall(
  model: ModelData,
  provider: InferenceProvider,
  options: SnippetOptions,
): Call | undefined {
  const pipeline = model.pipeline_tag;
  if (!pipeline) return undefined;
  if (isConversational(model)) {
    const example = getModelInputExample(model);
    const messages = options.messages ?? (example.kind === "chat" ? example.messages : []);
    const chatArgs = chatArguments(messages, options);
    return { task: "conversational", inputKind: "chat", args: chatArgs, chatArgs, file: undefined };
  }
  const example = getModelInputExample(model);
  if (example.kind === "chat") return undefined;
  if (example.kind === "file") {
    const args: Record<string, unknown> = { inputs: FILE_PLACEHOLDER };
    if (example.parameters) args.parameters = example.parameters;
    return {
      task: pipeline,
      inputKind: "file",
      args,
      chatArgs: {},
      file: sampleFileFor(provider, { fileName: example.fileName, contentType: example.contentType }),
    };
  }
  const args: Record<string, unknown> = { inputs: options.inputs ?? example.inputs };
  if (example.parameters) args.parameters = example.parameters;
  return { task: pipeline, inputKind: "json", args, chatArgs: {}, file: undefined };
}

/**
 * Spec §5: a provider body given as a string is parsed as JSON; if that fails, "Failed to parse body as JSON"
 * is logged (through `logger`, else @modelhub/inference's default logger) and the inputs are used.
 *
 * From getInferenceSnippets a JSON body never arrives as text: @modelhub/inference builds JSON bodies as
 * objects for every provider and task (generate.test.ts checks them all), and a binary body is the file's
 * bytes, which are not JSON and are never parsed. The text path stays for a request built elsewhere.
 */
export function parseProviderBody(
  request: Pick<BuiltRequest, "body" | "bodyKind">,
  args: Record<string, unknown>,
  logger: SnippetLogger | undefined,
): unknown {
  if (request.bodyKind === "binary") return args;
  if (typeof request.body !== "string") return request.body;
  try {
    return JSON.parse(request.body);
  } catch (error) {
    (logger ?? defaultLogger).error("Failed to parse body as JSON", error);
    return args;
  }
}

/** The router's OpenAI-compatible form of a chat request: `{router}/v1/chat/completions`, `model` as `id[:provider]`. */
function viaRouterV1(
  request: BuiltRequest,
  modelId: string,
  provider: string | undefined,
  routerUrl: string,
  logger: SnippetLogger | undefined,
): BuiltRequest {
  const routerModel = provider ? `${modelId}:${provider}` : modelId;
  const parsed = (parseProviderBody(request, {}, logger) ?? {}) as Record<string, unknown>;
  // The provider's body with the router's model (in the provider's place: a loop, as object rest
  // spreading measured slower on this per-call path).
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(parsed)) if (key !== "model") body[key] = parsed[key];
  body.model = routerModel;
  return { ...request, url: `${routerUrl}/v1/chat/completions`, providerModelId: routerModel, body };
}

/** The call every snippet of a request shows: the request as the client builds it, and its rendering. */
export interface SnippetPlan {
  request: BuiltRequest;
  /** The JSON body the provider receives (what raw HTTP snippets send). */
  providerBody: unknown;
  /** The local file the snippets read, if any. */
  fileName: string | undefined;
  /** Raw HTTP snippets send the file as a data URL with this start (fal's queue), else as base64. */
  fileDataUrlPrefix: string | undefined;
  render(): InferenceSnippet[];
}

/** One call with everything its snippets read, before any is rendered. */
interface PreparedCall {
  call: Call;
  provider: InferenceProvider;
  streaming: boolean;
  direct: boolean;
  request: BuiltRequest;
  body: unknown;
  context: TemplateContext;
  /** The registry's protocol for the provider and task. */
  protocol: string | undefined;
}

/** Plans the snippets of one call; undefined when the model's task has none or the provider does not serve it. */
export function planSnippets(
  model: ModelData,
  accessToken: string | undefined,
  provider: InferenceProvider,
  providerModelId: string | undefined,
  options: SnippetOptions,
): SnippetPlan | undefined {
  const prepared = prepareCall(model, accessToken, provider, providerModelId, options);
  if (!prepared) return undefined;
  return {
    request: prepared.request,
    providerBody: prepared.body,
    fileName: prepared.call.file?.fileName,
    fileDataUrlPrefix: prepared.context.hasFile ? (prepared.context.dataUrlPrefix?.obj as string) : undefined,
    render: () => renderCall(prepared),
  };
}

/**
 * `routerProvider`: a provider the hub's router knows and the registry does not (an own provider, an
 * organization's `org/name`), named in the router's `model` in place of `provider`, whose request is then the
 * template of the call.
 */
function prepareCall(
  model: ModelData,
  accessToken: string | undefined,
  provider: InferenceProvider,
  providerModelId: string | undefined,
  options: SnippetOptions,
  routerProvider?: string,
): PreparedCall | undefined {
  const call = describeCall(model, provider, options);
  if (!call) return undefined;
  const task = call.task as InferenceTask;
  if (!providerTaskSupported(provider, task)) return undefined;

  const direct =
    !options.endpointUrl &&
    (options.directRequest === true ||
      (accessToken !== undefined && accessToken !== "" && !accessToken.startsWith("hf_")));
  const sentinel = direct ? PROVIDER_TOKEN_SENTINEL : HUB_TOKEN_SENTINEL;
  const token: TokenSource =
    options.inlineToken && accessToken
      ? { kind: "inline", token: accessToken }
      : { kind: "env", variable: direct ? getProviderConfig(provider).apiKeyEnv : "HF_TOKEN" };
  const streaming = call.task === "conversational" && options.streaming === true;
  const hubUrl = (options.hubUrl ?? DEFAULT_HUB_URL).replace(/\/+$/, "");
  const routerUrl = (options.routerUrl ?? DEFAULT_ROUTER_URL).replace(/\/+$/, "");

  const built = buildRequest({
    provider,
    model: model.id,
    providerModelId: providerModelId ?? model.id,
    task,
    args: call.args as never,
    accessToken: sentinel,
    endpointUrl: options.endpointUrl,
    routerUrl,
    billTo: options.billTo,
    stream: streaming,
  });
  // Chat through the router speaks OpenAI at `{router}/v1`, the provider named in `model`, as today's public
  // snippets do (and the router picks one when `auto`).
  const request =
    task === "conversational" && !direct && !options.endpointUrl
      ? viaRouterV1(
          built,
          model.id,
          options.autoProvider ? undefined : (routerProvider ?? provider),
          routerUrl,
          options.logger,
        )
      : built;
  const body = parseProviderBody(request, call.args, options.logger);

  const context = buildTemplateContext({
    modelId: model.id,
    request,
    sentinel,
    token,
    args: call.args,
    providerBody: body,
    extraBody: hubClientExtraBody(provider, call.task, call.args.inputs, body),
    chatArgs: call.chatArgs,
    file: call.file,
    outputFile: binaryOutputFile(call.task),
    billTo: options.billTo,
    hubUrl,
    routerUrl,
    customHub: hubUrl !== DEFAULT_HUB_URL || routerUrl !== DEFAULT_ROUTER_URL,
    // The hub clients route `auto` chat to the public router's address, whatever hub they are pointed at
    // (huggingface_hub's AutoRouterConversationalTask): on another hub they name the provider auto picks.
    autoProvider:
      options.autoProvider === true &&
      (task !== "conversational" || (hubUrl === DEFAULT_HUB_URL && routerUrl === DEFAULT_ROUTER_URL)),
  });

  const protocol = providerTaskProtocol(provider, task);
  if (protocol === "fal-queue") {
    Object.assign(context, falQueueVariables(request, body, call.task, call.file, FILE_PLACEHOLDER));
  } else if (protocol === "wavespeed-job") {
    Object.assign(context, wavespeedJobVariables(request, body, call.task, call.file, FILE_PLACEHOLDER));
  }
  return { call, provider, streaming, direct, request, body, context, protocol };
}

/** Every snippet of a prepared call, in the order of languages and clients. */
function renderCall(prepared: PreparedCall): InferenceSnippet[] {
  const { call, provider, streaming, direct, context, protocol } = prepared;
  const snippets: InferenceSnippet[] = [];
  for (const language of SNIPPET_LANGUAGES) {
    for (const client of SNIPPET_CLIENTS[language] as readonly SnippetClient[]) {
      const content = renderSnippet(language, client, call, provider, streaming, direct, context, protocol);
      if (content)
        snippets.push({ language, client, content, install: installCommand(language, client, call.task) });
    }
  }
  return snippets;
}

/**
 * Spec §1/§3: ready-to-paste snippets calling `model` through `provider`, in every language and client
 * that serves the call. `providerModelId` is the provider's id for the model (from the hub's mapping).
 * With no access token, snippets read it from the environment; a given token is written into the code
 * only with `options.inlineToken`.
 */
export function getInferenceSnippets(
  model: ModelData,
  accessToken: string | undefined,
  provider: InferenceProvider,
  providerModelId?: string,
  options: SnippetOptions = {},
): InferenceSnippet[] {
  const prepared = prepareCall(model, accessToken, provider, providerModelId, options);
  return prepared ? renderCall(prepared) : [];
}

/** The clients that call the router's `/v1` as written (the hub clients name a registry provider instead). */
const ROUTER_V1_CLIENTS: ReadonlySet<SnippetClient> = new Set(["openai", "requests", "fetch", "curl"]);
/** A registry provider whose chat body is OpenAI's as is: the call a router-only provider's snippets start from. */
const OPENAI_CHAT_STAND_IN: InferenceProvider = "together";

/**
 * Snippets chatting with `model` through a provider only the hub's router knows (an own provider of the site,
 * or an organization's, named `org/name`): the OpenAI-compatible clients and raw HTTP, calling
 * `{routerUrl}/v1/chat/completions` with `model: "owner/name:provider"` and a hub token (the router holds the
 * provider's key). Empty for a model whose task is not chat.
 */
export function getRouterProviderSnippets(
  model: ModelData,
  accessToken: string | undefined,
  routerProvider: string,
  options: SnippetOptions = {},
): InferenceSnippet[] {
  if (accessToken && !accessToken.startsWith("hf_")) {
    throw new SnippetError(
      `${routerProvider} is called through the hub's router only: give a hub access token (hf_...), not a provider's key.`,
    );
  }
  const prepared = prepareCall(
    model,
    accessToken,
    OPENAI_CHAT_STAND_IN,
    undefined,
    { ...options, directRequest: false, endpointUrl: undefined, autoProvider: false },
    routerProvider,
  );
  if (prepared?.call.task !== "conversational") return [];
  return renderCall(prepared).filter((snippet) => ROUTER_V1_CLIENTS.has(snippet.client));
}

const HUB_PYTHON_EXTRAS: Partial<Record<string, string>> = {
  "feature-extraction": "numpy",
  "text-to-image": "pillow",
  "image-to-image": "pillow",
};

function installCommand(language: SnippetLanguage, client: SnippetClient, task: string): string {
  const install = CLIENT_INSTALL[language][client] ?? "";
  const extra = client === "huggingface_hub" ? HUB_PYTHON_EXTRAS[task] : undefined;
  return extra ? `${install} ${extra}` : install;
}

/** OpenAI-style image generation asked to answer `{data: [{b64_json}]}`. */
function answersWithBase64Images(body: unknown): boolean {
  const format = (body as { response_format?: unknown } | null)?.response_format;
  return format === "b64_json" || format === "base64";
}

/** huggingface.js: the node:fs/promises functions a snippet calls, as its import list. */
function fsImportsOf(body: string): string {
  const read = body.includes("readFile(");
  const write = body.includes("writeFile(");
  return read && write ? "readFile, writeFile" : read ? "readFile" : write ? "writeFile" : "";
}

function renderSnippet(
  language: SnippetLanguage,
  client: SnippetClient,
  call: Call,
  provider: InferenceProvider,
  streaming: boolean,
  direct: boolean,
  context: TemplateContext,
  protocol: string | undefined,
): string | undefined {
  if (client === "huggingface_hub" || client === "huggingface.js") {
    // These clients build the provider's request themselves: only where they implement the call, and not
    // with a provider key for hf-inference, which has no host of its own.
    if (!hubClientSupports(client, provider, call.task)) return undefined;
    if (direct && provider === "hf-inference") return undefined;
  }
  const name = selectTemplate({
    task: call.task,
    client,
    provider,
    streaming,
    inputKind: call.inputKind,
    hasParameters: context.parameters !== undefined,
    imagesAsBase64: answersWithBase64Images(context.providerInputs.obj),
    protocol,
  });
  if (!name) return undefined;
  const template = findTemplate(language, client, name);
  if (!template) return undefined;
  let methodName: string | undefined;
  if (needsMethodName(name) && (client === "huggingface_hub" || client === "huggingface.js")) {
    const methods = client === "huggingface_hub" ? HF_PYTHON_METHODS : HF_JS_METHODS;
    methodName = call.task === "conversational" ? undefined : methods[call.task];
    if (!methodName) return undefined;
  }
  // Per-snippet variables go on the call's own context (one per call), each set before every template that
  // reads it: a copy per snippet measured 23.0k -> 17.0k calls per CPU s (bench:snippets, 2026-11-24).
  context.methodName = methodName;
  const body = template(context).trim();
  if (!body) return undefined;
  if (client === "huggingface_hub" || client === "huggingface.js") {
    context.fsImports = fsImportsOf(body);
    const head = loadTemplate(language, client, "importInferenceClient")(context).trim();
    return `${head}\n\n${body}\n`;
  }
  if (client === "requests") {
    context.importBase64 = body.includes("base64.");
    context.importJson = body.includes("json.");
    context.importTime = body.includes("time.sleep(");
    const head = loadTemplate(language, client, "importRequests")(context).trim();
    return `${head}\n\n\n${body}\n`;
  }
  return `${body}\n`;
}
