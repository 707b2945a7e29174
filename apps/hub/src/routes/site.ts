import { Hono } from "hono";
import type { SiteSettingsService } from "../accounts/site-settings.js";
import type { HubEnv } from "../http/hub-env.js";

/** `GET /api/site`: what every page shows of the site settings (name, notice), for anyone. */
export function siteRoutes(site: SiteSettingsService) {
  const app = new Hono<HubEnv>();
  app.get("/", async (c) => {
    const { siteName, notice } = await site.get();
    return c.json({ siteName, notice });
  });
  return app;
}
