import { ALL_MODEL_LIBRARY_KEYS, MODEL_LIBRARIES, type ModelLibrary } from "@modelhub/tasks";
import { Hono } from "hono";
import type { LibraryView } from "../api/types.js";
import type { HubEnv } from "../http/hub-env.js";
import type { CatalogueService } from "./catalogue-service.js";
import { visibleModels } from "./model-lookup.js";

/** `GET /api/libraries`: every model library the hub knows, with how many of this hub's models use it. */
export function librariesRoutes({ catalogue }: { catalogue: CatalogueService }) {
  const app = new Hono<HubEnv>();
  app.get("/", async (c) => {
    const counts = await catalogue.countsByLibrary(visibleModels(c));
    const libraries = ALL_MODEL_LIBRARY_KEYS.map((id): LibraryView => {
      const library: ModelLibrary = MODEL_LIBRARIES[id];
      return {
        id,
        prettyLabel: library.prettyLabel,
        repoName: library.repoName,
        repoUrl: library.repoUrl,
        docsUrl: library.docsUrl ?? null,
        filter: library.filter,
        countDownloads: library.countDownloads ?? null,
        hasSnippets: library.snippets !== undefined,
        modelCount: counts.get(id) ?? 0,
      };
    });
    libraries.sort((a, b) => b.modelCount - a.modelCount || a.id.localeCompare(b.id));
    return c.json(libraries);
  });
  return app;
}
