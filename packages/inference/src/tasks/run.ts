import { dataUrlToBlob } from "../encoding.js";
import { NetworkError, ProviderOutputError } from "../errors.js";
import { type CallContext, createCallContext } from "../http/call-context.js";
import { jsonEvents } from "../http/json-events.js";
import { pollJob } from "../http/poll-job.js";
import { type HttpRequest, sendRequest } from "../http/request.js";
import { retryPolicy } from "../http/retry-policy.js";
import { taskSpec } from "../providers/index.js";
import type { FollowUp, PollStep, ProtocolTable, ResponseContext, TaskSpec } from "../providers/types.js";
import { type BuiltRequest, buildRequestWith, DEFAULT_HUB_URL } from "../routing/request-builder.js";
import { resolveModel } from "../routing/resolve.js";
import type { BaseArgs, ImageOutputType, InferenceTask, JsonObject, Options } from "../types.js";
import { encodeInputs } from "./encode-inputs.js";
import { validateArgs } from "./validate-args.js";

export interface RunOptions extends Options {
  outputType?: ImageOutputType;
}

const CHAT_UNSUPPORTED_STATUSES = new Set([400, 404, 422, 500]);

function describeChatError(status: number, message: string, model: string): string {
  return CHAT_UNSUPPORTED_STATUSES.has(status)
    ? `Server ${model} does not seem to support chat completion. Error: ${message}`
    : message;
}

interface Prepared {
  call: CallContext;
  built: BuiltRequest;
  spec: TaskSpec;
  request: HttpRequest;
  ctx: ResponseContext;
}

/** resolve -> validate -> encode -> build: everything before the first byte goes out. */
async function prepare(
  task: InferenceTask,
  protocols: ProtocolTable,
  allArgs: BaseArgs & JsonObject,
  options: RunOptions,
  stream: boolean,
): Promise<Prepared> {
  const { accessToken, model, provider: requested, endpointUrl, ...args } = allArgs;
  const provider = requested ?? (endpointUrl ? "hf-inference" : "auto");
  const call = createCallContext({
    fetch: options.fetch,
    signal: options.signal,
    totalTimeoutMs: options.totalTimeoutMs,
    timeoutMs: options.timeoutMs,
    jobDeadlineMs: options.jobDeadlineMs,
    retry: retryPolicy(options.retryOnError !== false, options.retry),
    includeCredentials: options.includeCredentials,
    logger: options.logger,
  });
  try {
    validateArgs({ task, model, provider, endpointUrl, accessToken, inputs: args.inputs });
    // An endpointUrl server is addressed hf-inference style with the caller's model id (as resolveModel
    // does): no hub lookup, so nothing to wait for.
    const resolved = endpointUrl
      ? { provider: "hf-inference" as const, model, providerModelId: model }
      : await resolveModel(call, {
          task,
          model,
          provider,
          endpointUrl,
          accessToken,
          hubUrl: options.hubUrl ?? DEFAULT_HUB_URL,
          mappingTtlMs: options.mappingTtlMs ?? 5 * 60_000,
          logger: options.logger,
        });
    const spec = taskSpec(resolved.provider, task, protocols);
    // Most tasks (chat among them) carry no files: no async step for them.
    const encoded = spec.inputEncoding ? await encodeInputs(args, spec.inputEncoding(args)) : args;
    const built = buildRequestWith(protocols, {
      provider: resolved.provider,
      model: resolved.model,
      providerModelId: resolved.providerModelId,
      task,
      args: encoded,
      accessToken,
      endpointUrl,
      routerUrl: options.routerUrl,
      billTo: options.billTo,
      stream,
      providerBaseUrls: options.providerBaseUrls,
    });
    const request: HttpRequest = {
      url: built.url,
      method: built.method,
      headers: built.headers,
      body: built.bodyKind === "binary" ? (built.body as BodyInit) : JSON.stringify(built.body),
      provider: built.provider,
    };
    if (task === "conversational") {
      request.describeError = describeChatError;
      request.subject = resolved.model ?? endpointUrl ?? built.providerModelId;
    }
    const ctx: ResponseContext = {
      task,
      providerModelId: built.providerModelId,
      model: resolved.model,
      args: encoded,
      stream,
      routed: !built.direct,
      sharedHost: built.sharedHost,
      endpoint: endpointUrl !== undefined,
      provider: built.provider,
      base: built.base,
      outputType: options.outputType,
      followUp: new CallFollowUp(call, built),
    };
    return { call, built, spec, request, ctx };
  } catch (error) {
    call.dispose();
    throw error;
  }
}

/**
 * Follow-up calls share the call's retry policy, signal and deadline. A class: most calls (chat) never
 * follow up, so nothing is prepared until a follow-up is made.
 */
class CallFollowUp implements FollowUp {
  private auth: Record<string, string> | undefined;

  constructor(
    private readonly call: CallContext,
    private readonly built: BuiltRequest,
  ) {}

  get logger() {
    return this.call.logger;
  }

  /** The main request's headers without its content type: auth and provider headers. */
  private authHeaders(): Record<string, string> {
    if (!this.auth) {
      const { "Content-Type": _json, ...auth } = this.built.headers;
      this.auth = auth;
    }
    return this.auth;
  }

  async getJson(url: string): Promise<unknown> {
    const { call, built } = this;
    const response = await sendRequest(call, {
      url,
      method: "GET",
      headers: this.authHeaders(),
      provider: built.provider,
    });
    return readJson(response);
  }

  async postJson(url: string, body: unknown): Promise<unknown> {
    const headers = { ...this.authHeaders(), "Content-Type": "application/json" };
    const response = await sendRequest(this.call, {
      url,
      method: "POST",
      headers,
      body: JSON.stringify(body),
      provider: this.built.provider,
    });
    return readJson(response);
  }

  async getBlob(url: string): Promise<Blob> {
    if (url.startsWith("data:")) return dataUrlToBlob(url);
    // Media lives on CDNs: never send the provider key there.
    const response = await sendRequest(this.call, {
      url,
      method: "GET",
      headers: {},
      provider: this.built.provider,
    });
    return response.blob();
  }

  poll<T>(step: PollStep<T>, schedule: { intervalMs: number; maxAttempts?: number }): Promise<T> {
    return pollJob(this.call, step, { ...schedule, what: `${this.built.provider} job` });
  }
}

function readJson(response: Response): Promise<unknown> {
  return response.json().catch((cause: unknown) => {
    if (cause instanceof SyntaxError) {
      throw new ProviderOutputError(`Expected a JSON answer from ${response.url || "the server"}`, { cause });
    }
    throw new NetworkError(`The connection failed while reading the answer: ${(cause as Error).message}`, {
      cause,
    });
  });
}

function readPayload(response: Response): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  return type.includes("json") ? readJson(response) : response.blob();
}

/** Runs one task call: resolve, build, send (with retries), then the provider's response transform. */
export async function runTask<T>(
  task: InferenceTask,
  protocols: ProtocolTable,
  args: BaseArgs & JsonObject,
  options: RunOptions = {},
  raw = false,
): Promise<T> {
  const { call, spec, request, ctx } = await prepare(task, protocols, args, options, false);
  try {
    const response = await sendRequest(call, request);
    const payload = await readPayload(response);
    if (raw) return payload as T;
    // Media outputs may download or poll (a promise); chat's parse is a synchronous check.
    const output = spec.parse(payload, ctx);
    return (output instanceof Promise ? await output : output) as T;
  } catch (error) {
    throw call.signal.aborted ? call.abortError() : error;
  } finally {
    call.dispose();
  }
}

/** Runs one streaming task call; the generator yields validated events and ends at `[DONE]`. */
export function runStreamTask<T>(
  task: InferenceTask,
  protocols: ProtocolTable,
  args: BaseArgs & JsonObject,
  options: RunOptions = {},
): AsyncGenerator<T> {
  // One generator (jsonEvents) for the whole stream: it opens the call lazily, on the first next().
  return jsonEvents<T>(async () => {
    const { call, spec, request } = await prepare(task, protocols, args, options, true);
    try {
      const response = await sendRequest(call, request);
      const validate = (spec.parseEvent ?? ((e: unknown) => e)) as (event: unknown) => T;
      return { response, request, call, validate };
    } catch (error) {
      call.dispose();
      throw call.signal.aborted ? call.abortError() : error;
    }
  });
}
