import { Hono } from "hono";
import { z } from "zod";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import { type LocalProviderService, localServedName } from "./local-provider-service.js";

/** What this process's llama.cpp engine holds now (local-engine.ts stats). */
export interface LocalEngineState {
  /** Served names (`owner/name@QUANT`) of the models in memory. */
  loadedModels: readonly string[];
  running: number;
  waiting: number;
}

const modelQuantization = z.strictObject({ model: z.string().max(300), quantization: z.string().max(40) });

/**
 * `/api/admin/local-provider`: which repositories and quantizations the built-in llama.cpp provider runs
 * (list, enable, disable). The operator's ADMIN_TOKEN or a site administrator, checked before anything is
 * read. `running` says whether this process runs the provider (LOCAL_PROVIDER=on), `calls` how many calls it
 * runs and queues now, and each model's `state` whether it is in memory.
 */
export function localProviderRoutes(deps: {
  localProvider: LocalProviderService;
  authorizer: Authorizer;
  maxBodyBytes: number;
  running: boolean;
  /** The engine's state, where this process runs the provider. */
  engineState?: () => LocalEngineState;
}) {
  const { localProvider } = deps;
  const app = new Hono<HubEnv>();
  app.use("*", async (c, next) => {
    await deps.authorizer.authorize(c.get("actor"), "manage", { kind: "site" });
    c.header("Cache-Control", "no-store");
    await next();
  });
  // Each model's state in this process: loaded (in memory), idle (loaded on its next call), or off (this
  // process does not run the provider).
  app.get("/", async (c) => {
    const engine = deps.running ? deps.engineState?.() : undefined;
    const loaded = new Set(engine?.loadedModels ?? []);
    const models = (await localProvider.list()).map((row) => ({
      ...row,
      state: !deps.running
        ? "off"
        : loaded.has(localServedName(row.modelId, row.quantization))
          ? "loaded"
          : "idle",
    }));
    return c.json({
      running: deps.running,
      calls: engine ? { running: engine.running, waiting: engine.waiting } : null,
      models,
    });
  });
  app.put("/models", validate("json", modelQuantization, { maxBytes: deps.maxBodyBytes }), async (c) => {
    const actor = c.get("actor");
    const by = actor.kind === "user" ? actor.user.name : "admin-token";
    return c.json(await localProvider.enable(c.req.valid("json"), by));
  });
  app.delete("/models", validate("query", modelQuantization), async (c) => {
    const { model, quantization } = c.req.valid("query");
    return c.json(await localProvider.disable(model, quantization));
  });
  return app;
}
