/**
 * The dataset viewer end to end: datasets made with pyarrow and pandas and uploaded with huggingface_hub;
 * their conversion drained from the queue; the viewer's answers compared with pyarrow's reading of the same
 * files, and `datasets.load_dataset(revision="refs/convert/parquet")` with loading the originals; image and
 * audio folders (labels from folder names, metadata files) with Pillow's and pandas' readings of their files.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const CLIENT = fileURLToPath(new URL("./__fixtures__/viewer_client.py", import.meta.url));
const hub = useTestHub();

describe("dataset viewer", () => {
  it("converts datasets to refs/convert/parquet and answers as the public viewer", async () => {
    const token = await userToken(hub.store, "alice");
    const home = mkdtempSync(join(hub.dir, "hf-"));
    const env = hfClientEnv(hub.url, home, { HF_TOKEN: token });
    const made = await runPython([CLIENT, "make"], env);
    expect(made.stderr.slice(-2000), "uploads").toBe(made.code === 0 ? made.stderr.slice(-2000) : "");
    expect(made.code).toBe(0);
    // Each dataset's last commit queued one job; the rejected ragged CSV does not stop the others.
    const ran = await hub.viewer!.drain();
    expect(ran).toBe(9);
    const checked = await runPython([CLIENT, "check"], env);
    if (checked.code !== 0) throw new Error(checked.stderr.slice(-3000));
    const found = JSON.parse(checked.stdout);

    expect(found.rows_equal, JSON.stringify(found.first_diff)).toBe(true);
    expect(found.num_rows_total).toBe(250);
    expect(found.partial).toBe(false);
    expect(found.row_idx).toEqual([0, 100, 200]);
    expect(found.features).toEqual([
      { feature_idx: 0, name: "i", type: { dtype: "int64", _type: "Value" } },
      { feature_idx: 1, name: "f", type: { dtype: "float64", _type: "Value" } },
      { feature_idx: 2, name: "s", type: { dtype: "string", _type: "Value" } },
      { feature_idx: 3, name: "ts", type: { dtype: "timestamp[us, tz=UTC]", _type: "Value" } },
      { feature_idx: 4, name: "l", type: { feature: { dtype: "int64", _type: "Value" }, _type: "List" } },
      {
        feature_idx: 5,
        name: "st",
        type: { a: { dtype: "int64", _type: "Value" }, b: { dtype: "string", _type: "Value" } },
      },
    ]);
    const splitsOf = (answer: { splits: { config: string; split: string }[] }) =>
      answer.splits.map((s) => `${s.config}/${s.split}`);
    expect(splitsOf(found.splits_types)).toEqual(["default/train", "default/test"]);
    expect(splitsOf(found.splits_yaml)).toEqual(["first/train", "second/train", "second/test"]);
    expect(found.first_rows_yaml_second_test.rows).toEqual([
      { row_idx: 0, row: { q: "c?", tags: ["y", "z"] }, truncated_cells: [] },
    ]);
    expect(splitsOf(found.splits_names)).toEqual(["default/train", "default/validation", "default/test"]);
    expect(found.ragged.status).toBe(500);
    expect(found.ragged.body.error).toMatch(/split train \(train\.csv\)/);
    // /search matches words as the public viewer's full-text search does (its index per split, BM25), not
    // substrings: "TRAIN é 1" is the words "train" and "1" ("é" folds to "e", a stop word). Every train row
    // holds "train"; row 1 also holds "1", so it comes first, then the others in their order ("10" is
    // another word than "1", where a substring search found rows 1 and 10 to 19).
    expect(found.search.num_rows_total).toBe(30);
    expect(found.search.rows.map((r: { row_idx: number }) => r.row_idx)).toEqual([1, 0, 2, 3, 4]);
    expect(found.size_names.size.dataset.num_rows).toBe(42);
    expect(found.parquet_names.parquet_files.map((f: { url: string }) => f.url)).toEqual(
      ["train", "validation", "test"].map(
        (split) =>
          `${hub.publicUrl}/datasets/alice/names/resolve/refs%2Fconvert%2Fparquet/default/${split}/0000.parquet`,
      ),
    );
    expect(found.secret_anonymous).toBe(401);
    expect(found.secret_owner).toBe(200);
    expect(found.too_long).toBe(400);
    // Its words are searched as words, never run: only "1" is in a row (row 1, "train é 1").
    expect(found.hostile_search).toEqual({ status: 200, total: 1 });
    expect(found.hostile_split).toBe(404);
    expect([400, 404]).toContain(found.hostile_dataset);
    expect(found.stats_types, JSON.stringify(found.stats_detail)).toEqual({
      f: ["float", true],
      i: ["int", true],
      l: ["list", true],
      s: ["string_text", true],
    });
    // Image and audio folders.
    expect(found.pictures_features).toEqual([
      { feature_idx: 0, name: "image", type: { _type: "Image" } },
      { feature_idx: 1, name: "label", type: { names: ["cat", "dog"], _type: "ClassLabel" } },
    ]);
    expect(found.pictures_rows_ok, JSON.stringify(found.pictures_detail)).toBe(true);
    expect(found.captioned_features).toEqual(["image", "caption", "score"]);
    expect(found.captioned_rows_ok, JSON.stringify(found.captioned_detail)).toBe(true);
    expect([...found.captioned_search].sort()).toEqual([0, 1]);
    expect(found.sounds_features).toEqual([
      { feature_idx: 0, name: "audio", type: { _type: "Audio" } },
      { feature_idx: 1, name: "speaker", type: { dtype: "string", _type: "Value" } },
      { feature_idx: 2, name: "text", type: { dtype: "string", _type: "Value" } },
    ]);
    expect(found.sounds_rows_ok, JSON.stringify(found.sounds_detail)).toBe(true);
    expect(found.hidden_src.owner).toBe(200);
    expect([401, 404]).toContain(found.hidden_src.anonymous);
    expect(found["load_alice/pictures"].equal, found["load_alice/pictures"].features).toBe(true);
    expect(found["load_alice/names"]).toEqual({ splits: ["test", "train", "validation"], equal: true });
    expect(found["load_alice/types"]).toEqual({ splits: ["test", "train"], equal: true });
  }, 240_000);
});
