import { INFERENCE_PROVIDERS, type InferenceProvider } from "@modelhub/inference";
import { getInferenceSnippets, SNIPPET_CLIENTS, SNIPPET_LANGUAGES, SnippetError } from "@modelhub/snippets";
import { Hono } from "hono";
import { z } from "zod";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { publicUrl } from "../http/public-url.js";
import { booleanParam, numberParam, queryParam, validate } from "../http/validate.js";
import type { CatalogueService } from "./catalogue-service.js";
import { modelOfRoute } from "./route-model.js";

const ALL_CLIENTS = [...new Set(Object.values(SNIPPET_CLIENTS).flat())];

/** What the snippets may be asked for; every parameter is optional. */
const snippetsQuery = z.object({
  /** A provider of the model, or `auto`: the one the router picks today. */
  provider: queryParam(z.enum(["auto", ...INFERENCE_PROVIDERS]).optional()),
  language: queryParam(z.enum(SNIPPET_LANGUAGES).optional()),
  client: queryParam(z.enum(ALL_CLIENTS).optional()),
  streaming: queryParam(booleanParam.optional()),
  temperature: queryParam(numberParam({ min: 0, max: 2 }).optional()),
  max_tokens: queryParam(numberParam({ min: 1, max: 1_000_000, integer: true }).optional()),
  top_p: queryParam(numberParam({ min: 0, max: 1 }).optional()),
});

/**
 * `GET /api/models/{owner}/{name}/snippets`: ready-to-paste inference snippets for one provider of the model,
 * with their clients pointed at this hub's API and router.
 */
export function snippetsRoutes({ catalogue }: { catalogue: CatalogueService }) {
  const app = new Hono<HubEnv>();
  app.get("/:owner/:name/snippets", validate("query", snippetsQuery), async (c) => {
    const query = c.req.valid("query");
    const model = await modelOfRoute(c, catalogue);
    const mappings = await catalogue.mappings(model.id);
    const requested = query.provider;
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
    const { language, client } = query;
    const options = {
      streaming: query.streaming ?? false,
      temperature: query.temperature,
      max_tokens: query.max_tokens,
      top_p: query.top_p,
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
