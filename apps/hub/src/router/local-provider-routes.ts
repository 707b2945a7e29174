import { Hono } from "hono";
import { z } from "zod";
import type { Authorizer } from "../auth/authorize.js";
import type { HubEnv } from "../http/hub-env.js";
import { validate } from "../http/validate.js";
import type { LocalProviderService } from "./local-provider-service.js";

const modelQuantization = z.strictObject({ model: z.string().max(300), quantization: z.string().max(40) });

/**
 * `/api/admin/local-provider`: which repositories and quantizations the built-in llama.cpp provider runs
 * (list, enable, disable). The operator's ADMIN_TOKEN or a site administrator, checked before anything is
 * read. `running` says whether this process runs the provider (LOCAL_PROVIDER=on).
 */
export function localProviderRoutes(deps: {
  localProvider: LocalProviderService;
  authorizer: Authorizer;
  maxBodyBytes: number;
  running: boolean;
}) {
  const { localProvider } = deps;
  const app = new Hono<HubEnv>();
  app.use("*", async (c, next) => {
    await deps.authorizer.authorize(c.get("actor"), "manage", { kind: "site" });
    c.header("Cache-Control", "no-store");
    await next();
  });
  app.get("/", async (c) => c.json({ running: deps.running, models: await localProvider.list() }));
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
