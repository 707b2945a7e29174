import { Hono } from "hono";
import type { HubEnv } from "../http/hub-env.js";
import type { AccountsService } from "./accounts-service.js";
import { accountObjectId, avatarPath } from "./public-shapes.js";

/**
 * `GET /api/users/{name}/overview`: a user's public profile, in the shape of the public hub's (name,
 * full name, avatar, organizations). A disabled or unknown user is a 404, as is an organization's name
 * (its page is `/api/organizations/{name}`).
 */
export function usersRoutes(accounts: AccountsService) {
  const app = new Hono<HubEnv>();
  app.get("/:name/overview", async (c) => {
    const { user, memberships } = await accounts.publicProfile(c.req.param("name"));
    return c.json({
      _id: accountObjectId(user),
      type: "user",
      user: user.name,
      fullname: user.fullname,
      avatarUrl: avatarPath(user.name),
      isPro: false,
      createdAt: user.createdAt,
      orgs: memberships.map(({ org }) => ({
        name: org.name,
        fullname: org.fullname,
        avatarUrl: avatarPath(org.name),
      })),
    });
  });
  return app;
}
