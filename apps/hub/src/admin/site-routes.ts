import { Hono } from "hono";
import type { HubEnv } from "../http/hub-env.js";
import type { SiteSettingsService } from "./site-settings.js";

/**
 * `GET /api/site`: what every page shows of the site settings (name, notice), for anyone, and the origins
 * model cards' images may load from besides the hub (the pages' Content-Security-Policy allows no others, so
 * the web app shows any other image as a link instead of tripping the policy).
 */
export function siteRoutes(site: SiteSettingsService, options: { cardImageOrigins: readonly string[] }) {
  const app = new Hono<HubEnv>();
  app.get("/", async (c) => {
    const { siteName, notice } = await site.get();
    return c.json({ siteName, notice, cardImageOrigins: options.cardImageOrigins });
  });
  return app;
}
