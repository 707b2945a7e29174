import { PIPELINE_DATA, PIPELINE_TYPES, type PipelineData, TASKS_DATA } from "@modelhub/tasks";
import { Hono } from "hono";
import type { HubEnv } from "../http/hub-env.js";
import type { CatalogueService } from "./catalogue-service.js";
import { visibleModels } from "./model-lookup.js";

/**
 * `GET /api/tasks`: every pipeline task keyed by id, as the public hub's endpoint (TASKS_DATA), plus its
 * sub-tasks, whether the hub hides it from model filters, and how many models of this hub declare it.
 */
export function tasksRoutes({ catalogue }: { catalogue: CatalogueService }) {
  const app = new Hono<HubEnv>();
  app.get("/", async (c) => {
    const counts = await catalogue.countsByPipeline(visibleModels(c));
    const tasks: Record<string, unknown> = {};
    for (const id of PIPELINE_TYPES) {
      const pipeline: PipelineData = PIPELINE_DATA[id];
      tasks[id] = {
        ...TASKS_DATA[id],
        subtasks: pipeline.subtasks ?? [],
        hideInModels: pipeline.hideInModels ?? false,
        modelCount: counts.get(id) ?? 0,
      };
    }
    return c.json(tasks);
  });
  return app;
}
