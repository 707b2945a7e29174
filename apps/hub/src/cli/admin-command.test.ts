import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { INFERENCE_PROVIDERS } from "@modelhub/inference";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIXTURE_CATALOGUE_DIR } from "../__fixtures__/seeded-app.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { InvalidInputError } from "../errors.js";
import { seedOnFirstStart } from "../store/catalogue.js";
import { openStore, type Store } from "../store/store.js";
import { runAdminCommand } from "./admin-command.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field.
type Json = any;

let temp: ReturnType<typeof makeTempDir>;
let store: Store;
beforeEach(() => {
  temp = makeTempDir();
  store = openStore({ dataDir: temp.dir });
  seedOnFirstStart(store, FIXTURE_CATALOGUE_DIR, INFERENCE_PROVIDERS);
});
afterEach(() => {
  store.close();
  temp.remove();
});

const run = (...args: string[]) => runAdminCommand(args, store, INFERENCE_PROVIDERS) as Json;

describe("admin CLI", () => {
  it("creates, lists and revokes tokens", () => {
    const created = run("tokens:create", "--name", "laptop", "--scopes", "inference,read");
    expect(created.token).toMatch(/^hf_/);
    expect(created.scopes).toEqual(["inference", "read"]);
    expect(JSON.stringify(run("tokens:list"))).not.toContain(created.token);
    expect(run("tokens:revoke", "--id", String(created.id)).revokedAt).toEqual(expect.any(String));
  });

  it("puts models, sets and deletes mappings, imports files", () => {
    const file = join(temp.dir, "model.json");
    writeFileSync(file, JSON.stringify({ id: "acme/m1", tags: [], pipeline_tag: "fill-mask" }));
    expect(run("models:put", "--file", file)).toEqual({ id: "acme/m1", created: true });
    run(
      "mappings:set",
      "--model",
      "acme/m1",
      "--provider",
      "hf-inference",
      "--task",
      "fill-mask",
      "--status",
      "live",
      "--provider-id",
      "acme/m1",
    );
    expect(store.mappings.forModel("acme/m1")).toEqual({
      "hf-inference": { status: "live", providerId: "acme/m1", task: "fill-mask" },
    });
    run("mappings:delete", "--model", "acme/m1", "--provider", "hf-inference");
    run("models:delete", "--id", "acme/m1");
    expect(store.models.get("acme/m1")).toBeUndefined();
    writeFileSync(file, JSON.stringify([{ id: "acme/m2", tags: ["x"] }]));
    expect(run("import", "--file", file)).toEqual({ models: 1, mappings: 0 });
  });

  it("explains unknown commands, unknown options and missing values", () => {
    expect(() => run("tokens:explode")).toThrow(/Unknown command "tokens:explode"/);
    expect(() => run("tokens:create")).toThrow(/Missing --name/);
    expect(() => run("tokens:create", "--nam", "x")).toThrow(InvalidInputError);
    expect(() =>
      run(
        "mappings:set",
        "--model",
        "acme/none",
        "--provider",
        "acme-ai",
        "--task",
        "x",
        "--status",
        "live",
        "--provider-id",
        "x",
      ),
    ).toThrow(/Unknown provider/);
  });
});
