import { describe, expect, it } from "vitest";
import {
  compareWithAllowed,
  findLayerViolations,
  type HubModule,
  registersHonoRoutes,
  violationKey,
} from "./check-layers.js";

const module = (path: string, imports: string[] = [], registersRoutes = false): HubModule => ({
  path,
  imports,
  registersRoutes,
});

describe("check-layers", () => {
  it("refuses a route module importing a table, the store or a blob store", () => {
    const violations = findLayerViolations([
      module("shop/orders-routes.ts", ["shop/orders-table.ts", "shop/orders-service.ts"]),
      module("shop/mounts.ts", ["store/store.ts"], true),
      module("shop/upload-routes.ts", ["storage/fs-blob-store.ts", "repos/repos-listing.ts"]),
      module("shop/orders-service.ts", ["shop/orders-table.ts", "storage/blob-store.ts", "store/store.ts"]),
      module("app.ts", ["store/store.ts", "shop/orders-table.ts"], true),
    ]);
    expect(violations.map((violation) => [violation.rule, violationKey(violation)])).toEqual([
      ["route imports a table", "shop/orders-routes.ts -> shop/orders-table.ts"],
      ["route imports the store", "shop/mounts.ts -> store/store.ts"],
      ["route imports a blob store", "shop/upload-routes.ts -> storage/fs-blob-store.ts"],
      ["route imports a table", "shop/upload-routes.ts -> repos/repos-listing.ts"],
    ]);
  });

  it("refuses a domain importing another domain's tables, not its service or the shared ones", () => {
    const violations = findLayerViolations([
      module("shop/orders-service.ts", [
        "billing/invoices-table.ts",
        "billing/billing-service.ts",
        "store/meta-table.ts",
      ]),
      module("auth/actor-resolver.ts", ["accounts/accounts-store.ts"]),
      module("store/store.ts", ["billing/invoices-table.ts", "shop/orders-table.ts"]),
    ]);
    expect(violations.map(violationKey)).toEqual(["shop/orders-service.ts -> billing/invoices-table.ts"]);
  });

  it("keeps the allow-list exact: a listed violation that is gone fails too", () => {
    const violations = findLayerViolations([module("shop/orders-routes.ts", ["shop/orders-table.ts"])]);
    expect(
      compareWithAllowed(violations, {
        "shop/orders-routes.ts -> shop/orders-table.ts": "being converted",
        "shop/old-routes.ts -> shop/orders-table.ts": "being converted",
      }),
    ).toEqual({ unexpected: [], gone: ["shop/old-routes.ts -> shop/orders-table.ts"] });
    expect(compareWithAllowed(violations, {}).unexpected).toEqual(violations);
  });

  it("tells a module that registers Hono routes from one that only mentions Hono", () => {
    expect(registersHonoRoutes("a.ts", "const app = new Hono<HubEnv>();")).toBe(true);
    expect(
      registersHonoRoutes(
        "b.ts",
        "export function mount(app: Hono<HubEnv>) { app.get('/x', (c) => c.text('')); }",
      ),
    ).toBe(true);
    expect(registersHonoRoutes("c.ts", "export function serve(app: Hono) { return app.fetch; }")).toBe(false);
    expect(registersHonoRoutes("d.ts", "const cache = new Map(); cache.get('x');")).toBe(false);
  });
});
