import type { RequestContext, TaskRoute } from "../providers/types.js";

/** A string option of a task route, or its default. */
export function option<R extends TaskRoute>(
  route: R,
  name: Exclude<keyof R, "protocol">,
  fallback: string,
): string {
  const value = route[name];
  return typeof value === "string" ? value : fallback;
}

/** Fills `{model}` in a route path with the provider's model id. */
export function fillPath(path: string, ctx: RequestContext): string {
  return path.includes("{model}") ? path.replace("{model}", ctx.providerModelId) : path;
}
