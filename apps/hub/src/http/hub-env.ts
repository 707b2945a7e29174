import type { RequestIdVariables } from "hono/request-id";

/** Variables the hub's middleware puts on every request context. */
export type HubEnv = {
  Variables: RequestIdVariables & {
    /** The configured public URL (http/public-url.ts), never derived from the request. */
    publicUrl: string;
  };
};
