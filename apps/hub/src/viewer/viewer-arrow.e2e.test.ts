/**
 * Arrow files in the dataset viewer end to end: `.arrow` files written by pyarrow (an IPC stream in record
 * batches, an IPC file) and by `datasets`' `save_to_disk` (a Dataset, a DatasetDict) uploaded with
 * huggingface_hub, converted from the queue; the viewer's answers compared with pyarrow's reading of the
 * same files, `datasets.load_dataset(revision="refs/convert/parquet")` with loading the originals, and a
 * truncated file recorded as the dataset's error without touching the others.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const CLIENT = fileURLToPath(new URL("./__fixtures__/arrow_client.py", import.meta.url));
const hub = useTestHub();

describe("dataset viewer: Arrow files", () => {
  it("converts Arrow IPC streams and files, and save_to_disk folders, as the library reads them", async () => {
    const token = await userToken(hub.store, "alice");
    const env = hfClientEnv(hub.url, mkdtempSync(join(hub.dir, "hf-")), { HF_TOKEN: token });
    const made = await runPython([CLIENT, "make"], env);
    if (made.code !== 0) throw new Error(made.stderr.slice(-3000));
    // One job per dataset; the truncated file's does not stop the others.
    expect(await hub.viewer!.drain()).toBe(4);
    const checked = await runPython([CLIENT, "check"], env);
    if (checked.code !== 0) throw new Error(checked.stderr.slice(-3000));
    const found = JSON.parse(checked.stdout);

    expect(found.train_rows_equal, JSON.stringify(found.train_first_diff)).toBe(true);
    expect(found.test_rows_equal, JSON.stringify(found.test_first_diff)).toBe(true);
    expect(found.train_first_rows_equal).toBe(true);
    expect(found.test_first_rows_equal).toBe(true);
    expect([found.train_total, found.test_total]).toEqual([250, 20]);
    expect(found.features.map((f: { name: string; type: unknown }) => [f.name, f.type])).toEqual([
      ["i", { dtype: "int64", _type: "Value" }],
      ["f", { dtype: "float64", _type: "Value" }],
      ["s", { dtype: "string", _type: "Value" }],
      ["d", { dtype: "date32", _type: "Value" }],
      ["ts", { dtype: "timestamp[us, tz=UTC]", _type: "Value" }],
      ["l", { feature: { dtype: "int64", _type: "Value" }, _type: "List" }],
      ["st", { a: { dtype: "int64", _type: "Value" }, b: { dtype: "string", _type: "Value" } }],
    ]);
    const splitsOf = (answer: { splits: { config: string; split: string }[] }) =>
      answer.splits.map((s) => `${s.config}/${s.split}`);
    expect(splitsOf(found.splits_types)).toEqual(["default/train", "default/test"]);
    // save_to_disk's folder: one .arrow shard beside state.json (a draw the library gives to Arrow).
    expect(splitsOf(found.splits_saved)).toEqual(["default/train"]);
    expect(splitsOf(found.splits_saved_dict)).toEqual(["default/train", "default/test"]);
    // The features `datasets` wrote in the Arrow schema (a ClassLabel) are the viewer's and the Parquet file's.
    expect(found.saved_features[1]).toEqual({
      feature_idx: 1,
      name: "label",
      type: { names: ["neg", "pos"], _type: "ClassLabel" },
    });
    expect(found.saved_rows_equal).toBe(true);
    expect(found.saved_parquet_features.label).toEqual({ names: ["neg", "pos"], _type: "ClassLabel" });
    expect(found.truncated.status).toBe(500);
    expect(found.truncated.body.error).toMatch(/split train \(train\.arrow\).*truncated/);
    expect(found["load_alice/arrow-types"]).toMatchObject({ splits: ["test", "train"], equal: true });
    expect(found["load_alice/arrow-saved"]).toEqual({ splits: ["train"], equal: true, features_equal: true });
    expect(found["load_alice/arrow-saved-dict"]).toEqual({
      splits: ["test", "train"],
      equal: true,
      features_equal: true,
    });
  }, 240_000);
});
