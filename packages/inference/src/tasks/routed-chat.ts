import type { HttpRequest } from "../http/request.js";
import { OPENAI_CHAT_PATH } from "../protocols/openai-chat.js";
import { authHeader, isInferenceProvider, PROVIDERS } from "../providers/index.js";
import { tokenKind } from "../routing/build-request.js";
import { cachedProviderMappings, DEFAULT_MAPPING_TTL_MS } from "../routing/hub-api.js";
import { DEFAULT_HUB_URL, DEFAULT_ROUTER_URL, trimSlash } from "../routing/request-builder.js";
import { chooseMapping } from "../routing/resolve.js";
import type { BaseArgs, ChatCompletionInput } from "../types.js";
import { bearer, chatArgs } from "./endpoint-chat.js";
import { describeChatError } from "./prepare.js";
import type { RunOptions } from "./run.js";

/**
 * The fast path of the call users make most: a chat with a model id, through the router or straight to a
 * provider with its key (`provider` named, or `auto`). Once the model's hub mappings are cached, routing is
 * a lookup (chooseMapping, shared with the general path), and the request is built here in one function:
 * the caller's arguments copied once, no route context, prepared-call object or response transform.
 * routed-chat.test.ts holds it to the general path's request (URL, header order, body bytes, error
 * wording). Undefined sends the call down the general path: a cold cache (which fills it), the default
 * model, openai's own rules, a model URL.
 */
export function routedChatRequest(
  allArgs: BaseArgs & ChatCompletionInput,
  options: RunOptions,
): HttpRequest | undefined {
  const { accessToken, model, provider: requested = "auto" } = allArgs;
  if (allArgs.endpointUrl !== undefined || !model || model.startsWith("http")) return undefined;
  if (requested === "openai" || (requested !== "auto" && !isInferenceProvider(requested))) return undefined;
  if ((options.mappingTtlMs ?? DEFAULT_MAPPING_TTL_MS) <= 0) return undefined;
  const hubUrl = options.hubUrl ?? DEFAULT_HUB_URL;
  const mappings = cachedProviderMappings(hubUrl, model);
  if (!mappings) return undefined;
  // A routing error is thrown as the general path throws it, with the same words (chatCompletion turns it
  // into the call's rejection): the general path checks nothing more before it for such a call.
  const { provider, providerModelId } = chooseMapping(mappings, model, {
    task: "conversational",
    provider: requested,
    hubUrl,
    logger: options.logger,
  });
  const config = PROVIDERS[provider];
  const route = config.tasks.conversational;
  if (route?.protocol !== "openai-chat" || !providerModelId) return undefined;

  // Where and how, as buildRequestWith decides: a provider's own key goes straight to the provider, a
  // hub token (or none) through the router.
  const direct = tokenKind(accessToken) === "provider";
  const base = direct
    ? trimSlash(options.providerBaseUrls?.[provider] ?? config.baseUrl)
    : `${trimSlash(options.routerUrl ?? DEFAULT_ROUTER_URL)}/${provider}`;
  const path = route.path ?? OPENAI_CHAT_PATH;
  const headers: Record<string, string> = {};
  if (accessToken) {
    if (direct) {
      const [name, value] = authHeader(config, accessToken);
      headers[name] = value;
    } else headers.Authorization = bearer(accessToken);
  }
  headers["Content-Type"] = "application/json";
  if (config.headers) Object.assign(headers, config.headers);
  if (options.billTo) headers["X-HF-Bill-To"] = options.billTo;
  // The provider's model id goes in the body, unless the route carries it in its path.
  const body = chatArgs(allArgs);
  if (route.modelInBody !== "endpoint-only") body.model = providerModelId;
  return {
    url: base + (path.includes("{model}") ? path.replace("{model}", providerModelId) : path),
    method: "POST",
    headers,
    body: JSON.stringify(body),
    provider,
    describeError: describeChatError,
    subject: model,
  };
}
