/**
 * The public viewer's byte cut end to end, with a test-sized limit: a split larger than it is converted up
 * to the limit's last whole line and marked partial, a smaller one whole; huggingface_hub's hf_hub_download
 * reads refs/convert/parquet and pyarrow's reading equals pandas' reading of the original's first bytes.
 */
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const CLIENT = fileURLToPath(new URL("./__fixtures__/byte_cut_client.py", import.meta.url));
const LIMIT = 8_192;
const hub = useTestHub({ viewer: { workers: false, splitLimitBytes: LIMIT } });

describe("dataset viewer byte cut", () => {
  it("converts a split's first bytes, marks it partial, and serves them on refs/convert/parquet", async () => {
    const token = await userToken(hub.store, "alice");
    const env = hfClientEnv(hub.url, mkdtempSync(join(hub.dir, "hf-")), {
      HF_TOKEN: token,
      SPLIT_LIMIT_BYTES: String(LIMIT),
    });
    const made = await runPython([CLIENT, "make"], env);
    if (made.code !== 0) throw new Error(made.stderr.slice(-3000));
    // Two uploads, two commits: the first job is superseded by the second commit's.
    expect(await hub.viewer!.drain()).toBeGreaterThanOrEqual(1);
    const checked = await runPython([CLIENT, "check"], env);
    if (checked.code !== 0) throw new Error(checked.stderr.slice(-3000));
    const found = JSON.parse(checked.stdout);
    expect(found.expected_rows).toBeGreaterThan(100);
    expect(found.expected_rows).toBeLessThan(found.full_rows);
    expect(found.converted_rows).toBe(found.expected_rows);
    expect(found.equal).toBe(true);
    expect(found.rows_total).toBe(found.expected_rows);
    expect(found.rows_partial).toBe(true);
    expect(found.test_rows).toBe(2);
    expect(found.test_partial).toBe(false);
    // The limit is per split: train counts the bytes up to its last whole line in it, test (20 bytes) whole.
    expect(found.dataset_original_bytes).toBe(found.head_bytes + 20);
    expect(found.size_partial).toBe(true);
    expect(found.parquet_partial).toBe(true);
  }, 120_000);
});
