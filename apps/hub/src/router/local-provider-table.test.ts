import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore } from "../__fixtures__/test-store.js";
import type { Store } from "../store/store.js";
import { createLocalProviderTable, type LocalModelRow } from "./local-provider-table.js";

// The local provider's table on both databases (HUB_TEST_DATABASE). Its end-to-end test runs llama.cpp and is
// skipped on the PostgreSQL pass (vitest.config.ts), so this is where PostgreSQL runs these statements.
let temp: ReturnType<typeof makeTempDir>;
let store: Store;
beforeEach(async () => {
  temp = makeTempDir();
  store = await openTestStore({ dataDir: temp.dir });
});
afterEach(async () => {
  await store.close();
  temp.remove();
});

const row = (overrides: Partial<LocalModelRow> = {}): LocalModelRow => ({
  modelId: "acme/tiny",
  quantization: "Q4_K_M",
  filePath: "tiny-Q4_K_M.gguf",
  enabledBy: "admin",
  createdAt: "2026-11-30T00:00:00.000Z",
  ...overrides,
});

describe("the local provider's models table", () => {
  it("enables, re-enables with another file, lists in order and disables", async () => {
    const table = createLocalProviderTable(store.db);
    await table.put(row({ modelId: "zeta/small" }));
    await table.put(row());
    await table.put(row({ quantization: "F16", filePath: "tiny-F16.gguf" }));
    await table.put(row({ filePath: "renamed-Q4_K_M.gguf", enabledBy: "other-admin" }));

    expect(await table.list()).toEqual([
      row({ quantization: "F16", filePath: "tiny-F16.gguf" }),
      row({ filePath: "renamed-Q4_K_M.gguf", enabledBy: "other-admin" }),
      row({ modelId: "zeta/small" }),
    ]);
    expect(await table.delete("acme/tiny", "Q4_K_M")).toBe(true);
    expect(await table.delete("acme/tiny", "Q4_K_M")).toBe(false);
    expect((await table.list()).map((r) => `${r.modelId}:${r.quantization}`)).toEqual([
      "acme/tiny:F16",
      "zeta/small:Q4_K_M",
    ]);
  });
});
