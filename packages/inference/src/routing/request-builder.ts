import { InputError } from "../errors.js";
import { authHeader, providerConfig, taskSpec } from "../providers/index.js";
import type { ProtocolTable, RequestContext, TaskSpec } from "../providers/types.js";
import type { InferenceProvider, InferenceTask, JsonObject } from "../types.js";

export const DEFAULT_HUB_URL = "https://huggingface.co";
export const DEFAULT_ROUTER_URL = "https://router.huggingface.co";

export interface BuildRequestParams {
  provider: InferenceProvider;
  /** The hub model id (used when `providerModelId` is absent, and for error messages). */
  model?: string;
  /** The provider's own model id, as mapped by the hub. Defaults to `model`. */
  providerModelId?: string;
  task: InferenceTask;
  /** Task inputs and parameters, e.g. `{messages, max_tokens}` or `{inputs, parameters}`. */
  args: JsonObject;
  accessToken?: string;
  /** Any OpenAI-compatible or hf-inference-style server; bypasses the router and the hub. */
  endpointUrl?: string;
  routerUrl?: string;
  billTo?: string;
  stream?: boolean;
  /** Per-provider replacement of the provider's own base URL (direct calls only). */
  providerBaseUrls?: Partial<Record<InferenceProvider, string>>;
  /** The model is a LoRA adapter: its weights' URL on the hub (see RequestContext.loraWeightsUrl). */
  loraWeightsUrl?: string;
}

export interface BuiltRequest {
  url: string;
  method: "POST";
  headers: Record<string, string>;
  /** The JSON body; for `bodyKind: "binary"`, whatever binary value the caller passed as `inputs`. */
  body: unknown;
  bodyKind: "json" | "binary";
  provider: InferenceProvider;
  providerModelId: string;
  /** True when the request goes straight to the provider (or endpointUrl), false through the router. */
  direct: boolean;
  /** Base that follow-up requests (status polling, results) are sent to. */
  base: string;
  /** See RequestContext.sharedHost. */
  sharedHost: boolean;
}

export type TokenKind = "hub" | "provider" | "none";

/** Spec §6: `hf_` tokens are hub tokens (router); any other token is the provider's own key (direct). */
export function tokenKind(accessToken: string | undefined): TokenKind {
  if (!accessToken) return "none";
  return accessToken.startsWith("hf_") ? "hub" : "provider";
}

// A regex only when there is a slash to trim: this runs before every request goes out.
export const trimSlash = (url: string) => (url.endsWith("/") ? url.replace(/\/+$/, "") : url);

/**
 * The URL a task's request goes to on an endpointUrl server. A bare server URL gets the OpenAI chat route
 * appended for chat, an OpenAI-style base (`.../v1`) its chat path (as the public client and its snippets
 * take it); a full route, or any other task, is used as is.
 */
export function endpointRouteUrl(endpointUrl: string, task: InferenceTask): string {
  const base = trimSlash(endpointUrl);
  if (task !== "conversational" || base.endsWith("/chat/completions")) return base;
  return base.endsWith("/v1") ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

/** `buildRequest` with the protocols to use (task functions pass only theirs, for tree-shaking). */
export function buildRequestWith(
  protocols: ProtocolTable,
  params: BuildRequestParams,
  spec: TaskSpec = taskSpec(params.provider, params.task, protocols),
): BuiltRequest {
  const { provider, task, args, accessToken, endpointUrl } = params;
  const config = providerConfig(provider);
  const stream = params.stream ?? false;
  if (stream && !spec.streams) throw new InputError(`Provider ${provider} cannot stream ${task}`);
  let providerModelId = params.providerModelId ?? params.model;
  if (!providerModelId) {
    if (!endpointUrl) throw new InputError("A model id is required to build an inference request");
    providerModelId = "tgi";
  }

  const kind = tokenKind(accessToken);
  const override = params.providerBaseUrls?.[provider];
  let base: string;
  let direct: boolean;
  let routed: boolean;
  if (endpointUrl) {
    base = trimSlash(endpointUrl);
    direct = true;
    routed = false;
  } else if (kind === "provider") {
    base = trimSlash(override ?? spec.directBaseUrl ?? config.baseUrl);
    direct = true;
    routed = false;
  } else {
    base = `${trimSlash(params.routerUrl ?? DEFAULT_ROUTER_URL)}/${provider}`;
    direct = false;
    routed = true;
  }
  const sharedHost = routed || (direct && !endpointUrl && override !== undefined);
  const ctx: RequestContext = {
    task,
    providerModelId,
    model: params.model,
    args,
    stream,
    routed,
    sharedHost,
    endpoint: endpointUrl !== undefined,
  };
  if (params.loraWeightsUrl) ctx.loraWeightsUrl = params.loraWeightsUrl;

  const url = endpointUrl ? endpointRouteUrl(base, task) : `${base}${spec.path(ctx)}`;

  const headers: Record<string, string> = {};
  if (accessToken) {
    const [name, value] =
      kind === "provider" && !endpointUrl
        ? authHeader(config, accessToken)
        : ["Authorization", `Bearer ${accessToken}`];
    headers[name] = value;
  }
  const binary = spec.inputEncoding?.(args) === "raw";
  let body: unknown;
  if (binary) {
    body = args.inputs;
    const type = typeof Blob !== "undefined" && body instanceof Blob ? body.type : "";
    if (type) headers["Content-Type"] = type;
  } else {
    body = spec.body ? spec.body(ctx) : args;
    headers["Content-Type"] = "application/json";
  }
  if (!endpointUrl) Object.assign(headers, config.headers, spec.headers?.(ctx));
  if (params.billTo) headers["X-HF-Bill-To"] = params.billTo;

  return {
    url,
    method: "POST",
    headers,
    body,
    bodyKind: binary ? "binary" : "json",
    provider,
    providerModelId,
    direct,
    base,
    sharedHost,
  };
}
