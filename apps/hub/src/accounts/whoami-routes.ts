import { Hono } from "hono";
import { UnauthorizedError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { whoamiView } from "./public-shapes.js";

/** The public hub's answer to whoami without valid credentials. */
export const WHOAMI_ANONYMOUS_MESSAGE = "Invalid username or password.";

/** `GET /api/whoami-v2`: who the token (or the session) belongs to, in the public hub's shape. */
export function whoamiRoutes() {
  const app = new Hono<HubEnv>();
  app.get("/whoami-v2", (c) => {
    const actor = c.get("actor");
    if (actor.kind !== "user") throw new UnauthorizedError(WHOAMI_ANONYMOUS_MESSAGE);
    const token = actor.credential.kind === "token" ? actor.credential.token : undefined;
    c.header("Cache-Control", "no-store");
    return c.json(whoamiView(actor.user, actor.memberships, token));
  });
  return app;
}
