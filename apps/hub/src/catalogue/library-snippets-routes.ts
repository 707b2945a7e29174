import {
  getLibrarySnippets,
  getLocalAppsForModel,
  getModelLibrary,
  isGgufFile,
  listGgufQuantizations,
} from "@modelhub/tasks";
import { Hono } from "hono";
import type { LibrarySnippetsView, LocalAppView } from "../api/types.js";
import { InvalidInputError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { publicUrl } from "../http/public-url.js";
import { queryOne } from "../http/query.js";
import type { CatalogueService } from "./catalogue-service.js";
import { modelOfRoute } from "./route-model.js";

/**
 * `GET /api/models/{owner}/{name}/library-snippets`: the model's library loading code, and the local apps
 * that can run it (snippets, or deep links). `quant` picks a GGUF file of the model for the local apps.
 */
export function librarySnippetsRoutes({ catalogue }: { catalogue: CatalogueService }) {
  const app = new Hono<HubEnv>();
  app.get("/:owner/:name/library-snippets", async (c) => {
    const model = await modelOfRoute(c, catalogue);
    const quant = queryOne(c, "quant");
    if (
      quant !== undefined &&
      !model.siblings?.some((file) => file.rfilename === quant && isGgufFile(quant))
    ) {
      throw new InvalidInputError(`"quant" must be one of the model's GGUF files.`);
    }
    const library = getModelLibrary(model.library_name);
    const hubUrl = publicUrl(c);
    const localAppOptions = { hubUrl };
    const view: LibrarySnippetsView = {
      id: model.id,
      library: model.library_name ?? null,
      libraryLabel: library?.prettyLabel ?? null,
      docsUrl: library?.docsUrl ?? null,
      snippets: getLibrarySnippets(model, { hubUrl }),
      ggufQuantizations: listGgufQuantizations(model),
      localApps: getLocalAppsForModel(model).map(({ key, app }): LocalAppView => {
        const common = {
          key,
          prettyLabel: app.prettyLabel,
          docsUrl: app.docsUrl,
          mainTask: app.mainTask,
          macOSOnly: app.macOSOnly ?? false,
        };
        return app.kind === "snippet"
          ? { ...common, kind: "snippet", snippets: app.snippet(model, quant, localAppOptions) }
          : { ...common, kind: "deeplink", deeplink: app.deeplink(model, quant).toString() };
      }),
    };
    return c.json(view);
  });
  return app;
}
