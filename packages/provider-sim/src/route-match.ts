import type { Route, RouteParams } from "./context.js";

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":")) {
        names.push(segment.slice(1));
        return "([^/]+)";
      }
      if (segment.startsWith("*")) {
        names.push(segment.slice(1));
        return "(.+?)";
      }
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return { route, pattern: new RegExp(`^${source}$`), names };
}

export type RouteMatch =
  | { kind: "found"; route: Route; params: RouteParams }
  | { kind: "wrong-method"; allowed: string[] }
  | { kind: "none" };

/** Matches paths against routes in order; a path known under another method is a 405, not a 404. */
export class RouteTable {
  readonly #routes: CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.#routes = routes.map(compile);
  }

  match(method: string, path: string): RouteMatch {
    const allowed: string[] = [];
    for (const compiled of this.#routes) {
      const found = compiled.pattern.exec(path);
      if (!found) continue;
      if (compiled.route.method !== method) {
        allowed.push(compiled.route.method);
        continue;
      }
      const params: RouteParams = {};
      compiled.names.forEach((name, index) => {
        params[name] = decodeURIComponent(found[index + 1]!);
      });
      return { kind: "found", route: compiled.route, params };
    }
    return allowed.length > 0 ? { kind: "wrong-method", allowed } : { kind: "none" };
  }
}
