import type { RequestIdVariables } from "hono/request-id";

/** Variables the hub's middleware puts on every request context. */
export type HubEnv = { Variables: RequestIdVariables };
