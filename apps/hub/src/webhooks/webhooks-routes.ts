import { type Context, Hono } from "hono";
import { InvalidInputError } from "../errors.js";
import { jsonObject, readJsonBody } from "../http/body.js";
import type { HubEnv } from "../http/hub-env.js";
import type { WebhooksService } from "./webhooks-service.js";

export interface WebhooksRoutesDeps {
  webhooks: WebhooksService;
  maxBodyBytes: number;
}

/**
 * The signed-in user's webhooks, at the public hub's paths (huggingface_hub's create_webhook, list_webhooks,
 * get_webhook, update_webhook, enable_webhook, disable_webhook, delete_webhook), under /api/settings/webhooks:
 * `GET /` (a list), `POST /` `{watched, url, domains?, secret?}`, `GET|POST|DELETE /{id}`,
 * `POST /{id}/enable|disable`, `POST /{id}/test` (queues a test event); and the delivery log: `GET /{id}/deliveries`,
 * `POST /{id}/deliveries/{deliveryId}/replay`. Single webhooks are answered as `{"webhook": ...}`.
 */
export function webhooksRoutes(deps: WebhooksRoutesDeps) {
  const { webhooks } = deps;
  const app = new Hono<HubEnv>();
  const body = async (c: Context<HubEnv>) => jsonObject(await readJsonBody(c, deps.maxBodyBytes));

  app.get("/", async (c) => c.json(await webhooks.list(c.get("actor"))));
  app.post("/", async (c) => c.json({ webhook: await webhooks.create(c.get("actor"), await body(c)) }));
  app.get("/:id", async (c) => c.json({ webhook: await webhooks.get(c.get("actor"), c.req.param("id")) }));
  app.post("/:id", async (c) =>
    c.json({ webhook: await webhooks.update(c.get("actor"), c.req.param("id"), await body(c)) }),
  );
  app.post("/:id/enable", async (c) =>
    c.json({ webhook: await webhooks.setEnabled(c.get("actor"), c.req.param("id"), true) }),
  );
  app.post("/:id/disable", async (c) =>
    c.json({ webhook: await webhooks.setEnabled(c.get("actor"), c.req.param("id"), false) }),
  );
  app.delete("/:id", async (c) => {
    await webhooks.delete(c.get("actor"), c.req.param("id"));
    return c.json({});
  });
  app.get("/:id/deliveries", async (c) => {
    const limit = Number(c.req.query("limit") ?? 100);
    if (!Number.isInteger(limit)) throw new InvalidInputError("limit must be a whole number.");
    return c.json({ deliveries: await webhooks.deliveries(c.get("actor"), c.req.param("id"), limit) });
  });
  app.post("/:id/test", async (c) =>
    c.json({ delivery: await webhooks.sendTest(c.get("actor"), c.req.param("id")) }, 201),
  );
  app.post("/:id/deliveries/:deliveryId/replay", async (c) => {
    const deliveryId = Number(c.req.param("deliveryId"));
    if (!Number.isSafeInteger(deliveryId)) throw new InvalidInputError("The delivery id is a number.");
    return c.json({ delivery: await webhooks.replay(c.get("actor"), c.req.param("id"), deliveryId) }, 201);
  });
  return app;
}
