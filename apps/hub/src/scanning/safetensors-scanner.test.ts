import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bytesSource, damagedVariants, fileSource, runVenvPython } from "./__fixtures__/scan-sources.js";
import { safetensorsScanner } from "./safetensors-scanner.js";

const dir = mkdtempSync(join(tmpdir(), "safetensors-scan-"));
const real = join(dir, "model.safetensors");

beforeAll(async () => {
  // Written by the safetensors package itself, with metadata and several dtypes (sub-byte and 0-size too).
  await runVenvPython(
    `import sys, numpy as np
from safetensors.numpy import save_file
save_file({"a": np.zeros((3, 4), dtype=np.float32), "b": np.arange(5, dtype=np.int64),
           "c": np.ones((2, 2), dtype=np.float16), "empty": np.zeros((0, 7), dtype=np.uint8)},
          sys.argv[1], metadata={"format": "np", "note": "x"})`,
    [real],
  );
}, 60_000);

function header(json: object, dataBytes: number, pad = 0): Buffer {
  const text = Buffer.from(JSON.stringify(json) + " ".repeat(pad));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(text.length));
  return Buffer.concat([length, text, Buffer.alloc(dataBytes)]);
}

async function reason(bytes: Buffer): Promise<string | undefined> {
  return (await safetensorsScanner.scan(bytesSource(bytes, "m.safetensors"))).couldNotScan;
}

describe("safetensors scanner", () => {
  it("applies to .safetensors files", () => {
    expect(safetensorsScanner.appliesTo("x/model-00001-of-00002.safetensors", Buffer.alloc(0))).toBe(true);
    expect(safetensorsScanner.appliesTo("model.bin", Buffer.alloc(0))).toBe(false);
  });

  it("passes a file written by the safetensors package", async () => {
    expect(await safetensorsScanner.scan(fileSource(real))).toEqual({ findings: [] });
  });

  it("says why a crafted header cannot be read", async () => {
    const tensor = { dtype: "F32", shape: [2], data_offsets: [0, 8] };
    expect(await reason(header({ t: tensor }, 8, 5))).toBeUndefined();
    const huge = Buffer.alloc(16);
    huge.writeBigUInt64LE(2n ** 40n);
    expect(await reason(huge)).toMatch(/over the format's limit of 100 MB/);
    const past = Buffer.alloc(16);
    past.writeBigUInt64LE(1000n);
    expect(await reason(past)).toMatch(/runs past the end/);
    expect(await reason(header({ t: { ...tensor, dtype: "F128" } }, 8))).toMatch(/unknown dtype "F128"/);
    expect(await reason(header({ t: { ...tensor, data_offsets: [0, 16] } }, 8))).toMatch(
      /is 8 bytes but its offsets span 16/,
    );
    expect(await reason(header({ t: { ...tensor, data_offsets: [0, 8] } }, 4))).toMatch(
      /past the 4-byte data region/,
    );
    expect(await reason(header({ t: tensor }, 12))).toMatch(
      /data region has 12 bytes but the tensors cover 8/,
    );
    const overlap = { t: tensor, u: { dtype: "U8", shape: [4], data_offsets: [4, 8] } };
    expect(await reason(header(overlap, 8))).toMatch(/'u' starts at 4 and overlaps/);
    const gap = { t: tensor, u: { dtype: "U8", shape: [4], data_offsets: [12, 16] } };
    expect(await reason(header(gap, 16))).toMatch(/'u' starts at 12 and leaves a gap/);
    expect(await reason(header({ t: { ...tensor, shape: [-2] } }, 8))).toMatch(/shape that is not a list/);
    expect(await reason(header({ __metadata__: { n: 3 } }, 0))).toMatch(
      /__metadata__ entry 'n' is not a string/,
    );
    expect(await reason(header([1, 2], 0))).toMatch(/does not start with '\{'/);
    expect(await reason(Buffer.from([1, 0, 0, 0, 0, 0, 0, 0, 0x7b]))).toMatch(/not valid UTF-8 JSON/);
    expect(await reason(Buffer.from([1, 2, 3]))).toMatch(/fewer than the 8-byte length/);
  });

  it("gives a reason, never a crash, for truncations and bit flips of a real file", {
    timeout: 30_000,
  }, async () => {
    const bytes = readFileSync(real);
    for (const variant of damagedVariants(bytes)) {
      const outcome = await safetensorsScanner.scan(bytesSource(variant.bytes, "m.safetensors"));
      // A flip inside tensor data or in JSON whitespace leaves a valid file; anything else must be refused.
      if (outcome.couldNotScan === undefined) expect(outcome.findings).toEqual([]);
      else expect(outcome.couldNotScan, variant.label).toMatch(/^malformed safetensors header: /);
    }
    expect(await reason(bytes.subarray(0, bytes.length - 1))).toMatch(/data region/);
  });
});
