import type { RequestIdVariables } from "hono/request-id";
import type { Actor } from "../auth/actor.js";
import type { Authorizer } from "../auth/authorize.js";

/** Variables the hub's middleware puts on every request context. */
export type HubEnv = {
  Variables: RequestIdVariables & {
    /** The configured public URL (http/public-url.ts), never derived from the request. */
    publicUrl: string;
    /** Who is calling (auth/middleware.ts): what routes hand to authorize(). */
    actor: Actor;
    authorizer: Authorizer;
  };
};
