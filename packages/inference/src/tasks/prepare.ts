import { type CallContext, createCallContext } from "../http/call-context.js";
import type { HttpRequest } from "../http/request.js";
import { retryPolicy } from "../http/retry-policy.js";
import { taskSpec } from "../providers/index.js";
import type { ProtocolTable, ResponseContext, TaskSpec } from "../providers/types.js";
import { DEFAULT_MAPPING_TTL_MS } from "../routing/hub-api.js";
import { type BuiltRequest, buildRequestWith, DEFAULT_HUB_URL } from "../routing/request-builder.js";
import { type Resolved, resolveModel } from "../routing/resolve.js";
import type {
  BaseArgs,
  ImageOutputType,
  InferenceTask,
  JsonObject,
  Options,
  ProviderChoice,
} from "../types.js";
import { validateArgs } from "./validate-args.js";

export interface RunOptions extends Options {
  outputType?: ImageOutputType;
}

/**
 * A call ready to send, in one object per call: the request (`HttpRequest`: url, method, headers, body),
 * the context its response transform sees (`ResponseContext`, read from the built request when asked),
 * its call context (signal, retries) and its task spec. One object where there were four (the ask, the
 * request, the response context and the tuple of them): every object a call touches is a cache miss once
 * the wait for the network has let other work evict the client's data (bench/results/2026-11-30-inference.md).
 */
export interface Prepared extends HttpRequest, ResponseContext {
  readonly call: CallContext;
  readonly spec: TaskSpec;
}

const CHAT_UNSUPPORTED_STATUSES = new Set([400, 404, 422, 500]);

/** A chat request's error message: a status that says the server has no chat route says so. */
export function describeChatError(status: number, message: string, model: string): string {
  return CHAT_UNSUPPORTED_STATUSES.has(status)
    ? `Server ${model} does not seem to support chat completion. Error: ${message}`
    : message;
}

/**
 * Call contexts of frozen options that carry nothing per call (no caller signal, no overall timeout): such
 * a context has no timer, no listener and no state, so every call with those options shares it. Frozen
 * only: an options object the caller may change between calls gets a context per call, as it always did.
 */
const sharedCalls = new WeakMap<RunOptions, CallContext>();

/** The options of a call made without any: shared, frozen, so its call context is shared too. */
export const NO_OPTIONS: RunOptions = Object.freeze({});
/** NO_OPTIONS' call context, made on first use (a WeakMap lookup less on the most common call). */
let noOptionsCall: CallContext | undefined;

export function callContextFor(options: RunOptions): CallContext {
  if (options === NO_OPTIONS) {
    noOptionsCall ??= createCallContext(options, retryPolicy(true, undefined));
    return noOptionsCall;
  }
  const shareable =
    options.signal === undefined && options.totalTimeoutMs === undefined && Object.isFrozen(options);
  if (!shareable)
    return createCallContext(options, retryPolicy(options.retryOnError !== false, options.retry));
  let call = sharedCalls.get(options);
  if (!call) {
    call = createCallContext(options, retryPolicy(options.retryOnError !== false, options.retry));
    sharedCalls.set(options, call);
  }
  return call;
}

/**
 * validate -> resolve -> encode -> build: everything before the first byte goes out. An endpointUrl call
 * without files (e.g. chat against a local server) needs no hub lookup and is assembled at once, and then
 * returned as it is, not in a promise: an await the caller skips is an async frame and ~200 bytes less per
 * call (bench/inference/allocation-profile.ts). Invalid arguments throw here, at once.
 */
export function prepare(
  task: InferenceTask,
  protocols: ProtocolTable,
  allArgs: BaseArgs & JsonObject,
  options: RunOptions,
  stream: boolean,
): Prepared | Promise<Prepared> {
  const { accessToken, model, provider: requested, endpointUrl, ...args } = allArgs;
  const provider = requested ?? (endpointUrl ? "hf-inference" : "auto");
  const call = callContextFor(options);
  const prepared = new PreparedCall(
    call,
    task,
    protocols,
    args,
    accessToken,
    model,
    endpointUrl,
    options,
    stream,
  );
  try {
    validateArgs({ task, model, provider, endpointUrl, accessToken, inputs: args.inputs });
    if (endpointUrl) {
      // An endpointUrl server is addressed hf-inference style with the caller's model id (as resolveModel
      // does): no hub lookup.
      const spec = taskSpec("hf-inference", task, protocols);
      if (!spec.inputEncoding) return prepared.assemble(spec, "hf-inference", model);
    }
  } catch (error) {
    call.dispose();
    throw error;
  }
  return resolveAndAssemble(prepared, provider);
}

async function resolveAndAssemble(prepared: PreparedCall, provider: ProviderChoice): Promise<Prepared> {
  const { call, task, options } = prepared;
  try {
    const resolved: Resolved = await resolveModel(call, {
      task,
      model: prepared.model,
      provider,
      endpointUrl: prepared.endpointUrl,
      accessToken: prepared.accessToken,
      hubUrl: options.hubUrl ?? DEFAULT_HUB_URL,
      mappingTtlMs: options.mappingTtlMs ?? DEFAULT_MAPPING_TTL_MS,
      logger: options.logger,
    });
    const spec = taskSpec(resolved.provider, task, prepared.protocols);
    if (spec.encodeInputs) prepared.args = await spec.encodeInputs(prepared.args);
    return prepared.assemble(
      spec,
      resolved.provider,
      resolved.model,
      resolved.providerModelId,
      resolved.loraWeightsUrl,
    );
  } catch (error) {
    call.dispose();
    throw error;
  }
}

/**
 * The one object of a call (see `Prepared`). Made before routing with what the caller asked for, then
 * `assemble` builds the request into it. The response context's fields that come from the built request
 * are getters: most transforms (chat's among them) never read them, so a call does not copy them.
 */
class PreparedCall implements Prepared {
  // The request (HttpRequest), set by `assemble`.
  url = "";
  readonly method = "POST";
  headers: Record<string, string> = EMPTY_HEADERS;
  body: BodyInit | null = null;
  describeError: HttpRequest["describeError"];
  subject: string | undefined;
  spec!: TaskSpec;
  /** The hub model id the call resolved to (the caller's until routing says otherwise). */
  model: string | undefined;
  private built!: BuiltRequest;

  constructor(
    readonly call: CallContext,
    readonly task: InferenceTask,
    readonly protocols: ProtocolTable,
    /** The caller's task arguments without the routing fields (token, model, provider, endpoint). */
    public args: JsonObject,
    readonly accessToken: string | undefined,
    model: string | undefined,
    readonly endpointUrl: string | undefined,
    readonly options: RunOptions,
    readonly stream: boolean,
  ) {
    this.model = model;
  }

  assemble(
    spec: TaskSpec,
    provider: Resolved["provider"],
    model: string | undefined,
    providerModelId = model,
    loraWeightsUrl?: string,
  ): this {
    const { task, endpointUrl, options } = this;
    const built = buildRequestWith(
      this.protocols,
      {
        provider,
        model,
        providerModelId,
        task,
        args: this.args,
        accessToken: this.accessToken,
        endpointUrl,
        routerUrl: options.routerUrl,
        billTo: options.billTo,
        stream: this.stream,
        providerBaseUrls: options.providerBaseUrls,
        loraWeightsUrl,
      },
      spec,
    );
    this.spec = spec;
    this.built = built;
    this.model = model;
    this.url = built.url;
    this.headers = built.headers;
    this.body = built.bodyKind === "binary" ? (built.body as BodyInit) : JSON.stringify(built.body);
    this.describeError = task === "conversational" ? describeChatError : undefined;
    this.subject = model ?? endpointUrl ?? built.providerModelId;
    return this;
  }

  get endpoint() {
    return this.endpointUrl !== undefined;
  }
  get outputType() {
    return this.options.outputType;
  }
  get provider() {
    return this.built.provider;
  }
  get providerModelId() {
    return this.built.providerModelId;
  }
  get base() {
    return this.built.base;
  }
  get routed() {
    return !this.built.direct;
  }
  get sharedHost() {
    return this.built.sharedHost;
  }
}

const EMPTY_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
