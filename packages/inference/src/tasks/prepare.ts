import { type CallContext, createCallContext } from "../http/call-context.js";
import type { HttpRequest } from "../http/request.js";
import { retryPolicy } from "../http/retry-policy.js";
import { taskSpec } from "../providers/index.js";
import type { ProtocolTable, ResponseContext, TaskSpec } from "../providers/types.js";
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
import { encodeInputs } from "./encode-inputs.js";
import { CallFollowUp } from "./follow-up.js";
import { validateArgs } from "./validate-args.js";

export interface RunOptions extends Options {
  outputType?: ImageOutputType;
}

/** A call ready to send: its context (signal, retries), the request, and what its response transform sees. */
export interface Prepared {
  call: CallContext;
  spec: TaskSpec;
  request: HttpRequest;
  ctx: ResponseContext;
}

/** What the caller asked for: the input of every preparation step. */
interface Ask {
  task: InferenceTask;
  protocols: ProtocolTable;
  /** The caller's task arguments without the routing fields (token, model, provider, endpoint). */
  args: JsonObject;
  accessToken: string | undefined;
  model: string | undefined;
  endpointUrl: string | undefined;
  options: RunOptions;
  stream: boolean;
}

const CHAT_UNSUPPORTED_STATUSES = new Set([400, 404, 422, 500]);

function describeChatError(status: number, message: string, model: string): string {
  return CHAT_UNSUPPORTED_STATUSES.has(status)
    ? `Server ${model} does not seem to support chat completion. Error: ${message}`
    : message;
}

/**
 * validate -> resolve -> encode -> build: everything before the first byte goes out. An endpointUrl call
 * without files (e.g. chat against a local server) needs no hub lookup and is assembled at once.
 */
export async function prepare(
  task: InferenceTask,
  protocols: ProtocolTable,
  allArgs: BaseArgs & JsonObject,
  options: RunOptions,
  stream: boolean,
): Promise<Prepared> {
  const { accessToken, model, provider: requested, endpointUrl, ...args } = allArgs;
  const provider = requested ?? (endpointUrl ? "hf-inference" : "auto");
  const call = createCallContext(options, retryPolicy(options.retryOnError !== false, options.retry));
  const ask: Ask = { task, protocols, args, accessToken, model, endpointUrl, options, stream };
  try {
    validateArgs({ task, model, provider, endpointUrl, accessToken, inputs: args.inputs });
    if (endpointUrl) {
      // An endpointUrl server is addressed hf-inference style with the caller's model id (as resolveModel
      // does): no hub lookup.
      const spec = taskSpec("hf-inference", task, protocols);
      if (!spec.inputEncoding) return assemble(call, ask, spec, "hf-inference", model);
    }
  } catch (error) {
    call.dispose();
    throw error;
  }
  return resolveAndAssemble(call, ask, provider);
}

async function resolveAndAssemble(call: CallContext, ask: Ask, provider: ProviderChoice): Promise<Prepared> {
  try {
    const { task, args, options } = ask;
    const resolved: Resolved = await resolveModel(call, {
      task,
      model: ask.model,
      provider,
      endpointUrl: ask.endpointUrl,
      accessToken: ask.accessToken,
      hubUrl: options.hubUrl ?? DEFAULT_HUB_URL,
      mappingTtlMs: options.mappingTtlMs ?? 5 * 60_000,
      logger: options.logger,
    });
    const spec = taskSpec(resolved.provider, task, ask.protocols);
    if (spec.inputEncoding) ask.args = await encodeInputs(args, spec.inputEncoding(args));
    return assemble(
      call,
      ask,
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

function assemble(
  call: CallContext,
  ask: Ask,
  spec: TaskSpec,
  provider: Resolved["provider"],
  model: string | undefined,
  providerModelId = model,
  loraWeightsUrl?: string,
): Prepared {
  const { task, args, endpointUrl, options, stream } = ask;
  const built: BuiltRequest = buildRequestWith(
    ask.protocols,
    {
      provider,
      model,
      providerModelId,
      task,
      args,
      accessToken: ask.accessToken,
      endpointUrl,
      routerUrl: options.routerUrl,
      billTo: options.billTo,
      stream,
      providerBaseUrls: options.providerBaseUrls,
      loraWeightsUrl,
    },
    spec,
  );
  const request: HttpRequest = {
    url: built.url,
    method: built.method,
    headers: built.headers,
    body: built.bodyKind === "binary" ? (built.body as BodyInit) : JSON.stringify(built.body),
    provider: built.provider,
    describeError: task === "conversational" ? describeChatError : undefined,
    subject: model ?? endpointUrl ?? built.providerModelId,
  };
  const ctx = new CallResponseContext(call, ask, built, model);
  return { call, spec, request, ctx };
}

/**
 * What a response transform sees, read from the call's parts when asked: most transforms (chat's among
 * them) never look, so a call does not copy a dozen fields into a context, nor make its follow-up helper.
 */
class CallResponseContext implements ResponseContext {
  private followUpHelper: CallFollowUp | undefined;

  constructor(
    private readonly call: CallContext,
    private readonly ask: Ask,
    private readonly built: BuiltRequest,
    readonly model: string | undefined,
  ) {}

  get task() {
    return this.ask.task;
  }
  get args() {
    return this.ask.args;
  }
  get stream() {
    return this.ask.stream;
  }
  get endpoint() {
    return this.ask.endpointUrl !== undefined;
  }
  get outputType() {
    return this.ask.options.outputType;
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
  get followUp(): CallFollowUp {
    this.followUpHelper ??= new CallFollowUp(this.call, this.built);
    return this.followUpHelper;
  }
}
