import type { Context } from "hono";
import type { Actor } from "../auth/actor.js";
import { AuthenticationRequiredError } from "../auth/auth-errors.js";
import type { HubEnv } from "../http/hub-env.js";
import type { User } from "./types.js";

/** The signed-in user making the call, or AuthenticationRequiredError (401) saying `why`. */
export function signedInUser(c: Context<HubEnv>, why = "Sign in first."): Extract<Actor, { kind: "user" }> {
  const actor = c.get("actor");
  if (actor.kind !== "user") throw new AuthenticationRequiredError(why);
  return actor;
}

/**
 * The signed-in user, once allowed to change their own account (`authorize(actor, "manage", user)`: a web
 * session or a write token).
 */
export async function accountOwner(c: Context<HubEnv>, why?: string): Promise<User> {
  const actor = signedInUser(c, why);
  await c.get("authorizer").authorize(actor, "manage", { kind: "user", name: actor.user.name });
  return actor.user;
}
