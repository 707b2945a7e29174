import type { ProviderDefinition } from "./context.js";
import type { ModelRegistry } from "./models.js";

/** What the public router's OpenAI-compatible `/v1/chat/completions` resolves a call to. */
export interface RoutedCall {
  provider: string;
  /** The provider's own chat path, under its base. */
  path: string;
  /** The caller's body with `model` replaced by the provider's id. */
  body: Buffer;
}

const POLICIES = new Set(["auto", "fastest", "cheapest"]);

/**
 * The public router's `/v1/chat/completions`, as snippets call it: `model` is `owner/name`, optionally with
 * `:provider` (or a policy, which picks the first live provider here). Returns an error text when the call
 * cannot be resolved.
 */
export function resolveRouterChat(
  json: unknown,
  registry: ModelRegistry,
  providers: ReadonlyMap<string, { definition: ProviderDefinition }>,
): RoutedCall | string {
  const body = json as Record<string, unknown> | undefined;
  const model = typeof body?.model === "string" ? body.model : undefined;
  if (!body || !model) return 'The body must be a JSON object with a "model".';
  const colon = model.lastIndexOf(":");
  const id = colon === -1 ? model : model.slice(0, colon);
  const suffix = colon === -1 ? "" : model.slice(colon + 1);
  const entry = registry.get(id);
  if (!entry) return `Model ${id} does not exist.`;
  const mappings = Object.entries(registry.mappingsOf(entry)).filter(
    ([, mapping]) => mapping.task === "conversational",
  );
  const named = suffix && !POLICIES.has(suffix) ? suffix : undefined;
  const chosen = named
    ? mappings.find(([provider]) => provider === named)
    : mappings.find(([, mapping]) => mapping.status === "live");
  if (!chosen) return `Model ${id} is not served for chat${named ? ` by ${named}` : ""}.`;
  const [provider, mapping] = chosen;
  const route = providers
    .get(provider)
    ?.definition.routes.find((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
  if (!route) return `Provider ${provider} has no chat route.`;
  return {
    provider,
    path: route.path.replace("*model", mapping.providerId),
    body: Buffer.from(JSON.stringify({ ...body, model: mapping.providerId })),
  };
}
