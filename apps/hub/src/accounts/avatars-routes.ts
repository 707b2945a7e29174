import { createHash } from "node:crypto";
import { Hono } from "hono";
import type { HubEnv } from "../http/hub-env.js";

/**
 * `GET /api/avatars/{name}`: a generated avatar (the name's first character on a colour derived from the
 * name), so accounts have a picture without any external service. Any name gets one: whether the account
 * exists is not revealed.
 */
export function avatarsRoutes() {
  const app = new Hono<HubEnv>();
  app.get("/:name", (c) => {
    const name = c.req.param("name").slice(0, 100);
    const hue = createHash("sha256").update(name.toLowerCase()).digest()[0]! * (360 / 256);
    const initial = (name.match(/[A-Za-z0-9]/)?.[0] ?? "?").toUpperCase();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="32" fill="hsl(${hue.toFixed(0)} 55% 45%)"/><text x="32" y="42" font-family="system-ui,sans-serif" font-size="30" font-weight="600" fill="#fff" text-anchor="middle">${initial}</text></svg>`;
    c.header("Content-Type", "image/svg+xml");
    c.header("Cache-Control", "public, max-age=86400");
    c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    return c.body(svg);
  });
  return app;
}
