import { Hono } from "hono";
import { type Actor, ANONYMOUS } from "../auth/actor.js";
import { NotFoundError } from "../errors.js";
import type { HubEnv } from "../http/hub-env.js";
import { queryInteger } from "../http/query.js";
import type { EngagementService } from "./engagement-service.js";

const actorOf = (actor: Actor | undefined): Actor => actor ?? ANONYMOUS;

/**
 * `GET /api/users/{name}/likes` (huggingface_hub's `list_liked_repos`): what a user likes, each as
 * `{createdAt, repo: {name, type}}`, without the repositories the caller may not see.
 */
export function userLikesRoutes(engagement: EngagementService) {
  const app = new Hono<HubEnv>();
  app.get("/:name/likes", async (c) => {
    const name = c.req.param("name");
    const likes = await engagement.likedBy(actorOf(c.get("actor")), name);
    if (!likes) throw new NotFoundError(`User ${name.slice(0, 100)} not found.`);
    return c.json(likes);
  });
  return app;
}

/**
 * `GET /api/trending?limit=`: not on the public hub. The repositories with the most downloads and likes on
 * this hub in the last week, as the caller may see them (the landing page's list).
 */
export function trendingRoutes(engagement: EngagementService) {
  const app = new Hono<HubEnv>();
  app.get("/trending", async (c) => {
    const limit = queryInteger(c, "limit", { min: 1, max: 100 }) ?? 10;
    return c.json(await engagement.trending(actorOf(c.get("actor")), limit));
  });
  return app;
}
