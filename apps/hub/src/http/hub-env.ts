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
    /**
     * Set by a route that writes the request's log line itself, with the request's fields and its own (the
     * router: one line per provider call, at the call's end, router/record-call.ts); the envelope then
     * writes none, so that such a request is logged once.
     */
    requestLoggedByRoute: boolean;
  };
};
