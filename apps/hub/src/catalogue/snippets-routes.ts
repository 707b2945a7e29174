import { INFERENCE_PROVIDERS, type InferenceProvider, isInferenceProvider } from "@modelhub/inference";
import { getInferenceSnippets, SNIPPET_CLIENTS, SNIPPET_LANGUAGES, SnippetError } from "@modelhub/snippets";
import { Hono } from "hono";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { publicUrl } from "../http/public-url.js";
import { queryBoolean, queryInteger, queryNumber, queryOne } from "../http/query.js";
import type { CatalogueService } from "./catalogue-service.js";
import { modelOfRoute } from "./route-model.js";

const ALL_CLIENTS: readonly string[] = Object.values(SNIPPET_CLIENTS).flat();

/**
 * `GET /api/models/{owner}/{name}/snippets`: ready-to-paste inference snippets for one provider of the model,
 * with their clients pointed at this hub's API and router.
 */
export function snippetsRoutes({ catalogue }: { catalogue: CatalogueService }) {
  const app = new Hono<HubEnv>();
  app.get("/:owner/:name/snippets", async (c) => {
    const model = await modelOfRoute(c, catalogue);
    const mappings = await catalogue.mappings(model.id);

    const requested = queryOne(c, "provider");
    if (requested !== undefined && requested !== "auto" && !isInferenceProvider(requested)) {
      throw new InvalidInputError(`Unknown provider "${requested.slice(0, 60)}".`);
    }
    // `auto`: the provider the router picks today (the first live one in the hub's order), named only in the
    // snippets that must name one; the others let the client or the router choose.
    const auto = requested === "auto";
    const provider: InferenceProvider | undefined =
      requested && !auto
        ? (requested as InferenceProvider)
        : INFERENCE_PROVIDERS.find((name) => mappings[name]?.status === "live");
    const mapping = provider ? mappings[provider] : undefined;
    if (!provider || !mapping) {
      const served = Object.keys(mappings);
      throw new NotFoundError(
        `Model ${model.id} is not served by ${provider ?? "any provider"}${served.length ? `; providers: ${served.join(", ")}` : ""}.`,
      );
    }
    const language = queryOne(c, "language");
    if (language !== undefined && !(SNIPPET_LANGUAGES as readonly string[]).includes(language)) {
      throw new InvalidInputError(
        `Unknown language "${language.slice(0, 30)}": ${SNIPPET_LANGUAGES.join(", ")}.`,
      );
    }
    const client = queryOne(c, "client");
    if (client !== undefined && !ALL_CLIENTS.includes(client)) {
      throw new InvalidInputError(`Unknown client "${client.slice(0, 30)}": ${ALL_CLIENTS.join(", ")}.`);
    }
    const options = {
      streaming: queryBoolean(c, "streaming") ?? false,
      temperature: queryNumber(c, "temperature", { min: 0, max: 2 }),
      max_tokens: queryInteger(c, "max_tokens", { min: 1, max: 1_000_000 }),
      top_p: queryNumber(c, "top_p", { min: 0, max: 1 }),
      hubUrl: publicUrl(c),
      routerUrl: `${publicUrl(c)}/router`,
      autoProvider: auto,
    };

    let snippets: ReturnType<typeof getInferenceSnippets>;
    try {
      // No access token: the code reads it from the environment (HF_TOKEN), never from this request.
      snippets = getInferenceSnippets(model, undefined, provider, mapping.providerId, options);
    } catch (error) {
      if (error instanceof SnippetError) throw new InvalidInputError(error.message);
      throw error;
    }
    return c.json({
      id: model.id,
      provider: auto ? "auto" : provider,
      ...(auto ? { autoProvider: provider } : {}),
      providerModelId: mapping.providerId,
      task: mapping.task,
      status: mapping.status,
      ...(mapping.status === "staging"
        ? { warning: `The ${provider} mapping of ${model.id} is in staging: for tests only.` }
        : {}),
      snippets: snippets.filter(
        (snippet) =>
          (language === undefined || snippet.language === language) &&
          (client === undefined || snippet.client === client),
      ),
    });
  });
  return app;
}
