import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { GgufError, readGgufSummary } from "../derive/gguf.js";
import { bytesSource, damagedVariants, fileSource, runVenvPython } from "./__fixtures__/scan-sources.js";
import { GGML_TYPE_SIZES, ggufScanner } from "./gguf-scanner.js";

const dir = mkdtempSync(join(tmpdir(), "gguf-scan-"));
const little = join(dir, "model.gguf");
const big = join(dir, "model-be.gguf");
const aligned = join(dir, "aligned.gguf");
let quantSizes: Record<string, [number, number]> = {};

beforeAll(async () => {
  // Written by the gguf package (llama.cpp's own writer): string arrays, nested arrays, several ggml types.
  const output = await runVenvPython(
    `import sys, json, numpy as np, gguf
def write(path, endianess, alignment=None):
    w = gguf.GGUFWriter(path, "llama", endianess=endianess)
    if alignment: w.add_custom_alignment(alignment)
    w.add_name("tiny")
    w.add_context_length(128)
    w.add_array("tokenizer.ggml.tokens", ["<s>", "</s>", "hello", "wörld"])
    w.add_array("nested", [[1, 2], [3]])
    w.add_key_value("f", 1.5, gguf.GGUFValueType.FLOAT64)
    w.add_tensor("tok_embd.weight", np.ones((4, 8), dtype=np.float32))
    w.add_tensor("norm.weight", np.ones(3, dtype=np.float16))
    w.add_tensor("ids", np.arange(5, dtype=np.int32))
    w.add_tensor("q", np.zeros((2, 34), dtype=np.uint8), raw_dtype=gguf.GGMLQuantizationType.Q8_0)
    w.write_header_to_file(); w.write_kv_data_to_file(); w.write_tensors_to_file(); w.close()
write(sys.argv[1], gguf.GGUFEndian.LITTLE)
write(sys.argv[2], gguf.GGUFEndian.BIG)
write(sys.argv[3], gguf.GGUFEndian.LITTLE, 256)
print(json.dumps({int(k): v for k, v in gguf.GGML_QUANT_SIZES.items()}))`,
    [little, big, aligned],
  );
  quantSizes = JSON.parse(output);
}, 60_000);

/** A GGUF v1 header by hand (32-bit counts and lengths), which no current writer makes. */
function v1(keyValues: Buffer[], tensorCount = 0): Buffer {
  const head = Buffer.alloc(16);
  head.write("GGUF", 0, "latin1");
  head.writeUInt32LE(1, 4);
  head.writeUInt32LE(tensorCount, 8);
  head.writeUInt32LE(keyValues.length, 12);
  return Buffer.concat([head, ...keyValues]);
}
function v1String(text: string): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(Buffer.byteLength(text));
  return Buffer.concat([length, Buffer.from(text)]);
}
const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
};

async function reason(bytes: Buffer): Promise<string | undefined> {
  return (await ggufScanner.scan(bytesSource(bytes, "m.gguf"))).couldNotScan;
}

describe("GGUF scanner", () => {
  it("knows the block sizes of every ggml type the gguf package knows", () => {
    expect(Object.keys(quantSizes).length).toBeGreaterThan(30);
    for (const [type, size] of Object.entries(quantSizes))
      expect(GGML_TYPE_SIZES[Number(type)], type).toEqual(size);
  });

  it("applies to .gguf names and to the GGUF magic", () => {
    expect(ggufScanner.appliesTo("a/model-Q4_K_M.gguf", Buffer.alloc(0))).toBe(true);
    expect(ggufScanner.appliesTo("blob", Buffer.from("GGUF\x03\0\0\0"))).toBe(true);
    expect(ggufScanner.appliesTo("model.bin", Buffer.from("PK"))).toBe(false);
  });

  it("passes files written by the gguf package, either byte order, custom alignment", async () => {
    for (const path of [little, big, aligned])
      expect(await ggufScanner.scan(fileSource(path)), path).toEqual({ findings: [] });
  });

  it("reads a v1 header and says why a crafted one cannot be read", async () => {
    const key = (name: string, type: number, value: Buffer) =>
      Buffer.concat([v1String(name), u32(type), value]);
    expect(await reason(v1([key("general.name", 8, v1String("old"))]))).toBeUndefined();
    expect(await reason(Buffer.from("GGML\x03\0\0\0\0\0\0\0"))).toMatch(/magic is "GGML"/);
    expect(await reason(Buffer.from("GGUF\x07\0\0\0\0\0\0\0"))).toMatch(/version 7 is not one of/);
    expect(await reason(v1([key("k", 8, u32(0xffffff))]))).toMatch(/runs past the end/);
    expect(await reason(v1([key("k", 8, u32(0xfffffff0))]))).toMatch(/over the limit/);
    expect(await reason(v1([key("k", 13, u32(1))]))).toMatch(/unknown type 13/);
    const hugeArray = key("k", 9, Buffer.concat([u32(8), u32(5_000_000)]));
    expect(await reason(v1([hugeArray]))).toMatch(/cannot fit in the rest of the file/);
    expect(await reason(v1([key("general.alignment", 4, u32(48))]))).toMatch(/48 is not a power of two/);
    const tensor = (type: number, offset: number) => {
      const off = Buffer.alloc(8);
      off.writeBigUInt64LE(BigInt(offset));
      return Buffer.concat([v1String("t"), u32(1), u32(32), u32(type), off]);
    };
    const withTensor = (type: number, offset: number, data: number) => {
      const header = Buffer.concat([v1([], 1), tensor(type, offset)]);
      return Buffer.concat([header, Buffer.alloc((32 - (header.length % 32)) % 32), Buffer.alloc(data)]);
    };
    expect(await reason(withTensor(0, 0, 128))).toBeUndefined();
    expect(await reason(withTensor(0, 0, 64))).toMatch(/ends past the 64-byte data section/);
    expect(await reason(withTensor(99, 0, 128))).toMatch(/unknown ggml type 99/);
    expect(await reason(withTensor(0, 16, 256))).toMatch(/offset 16, not aligned to 32/);
    expect(await reason(withTensor(0, 32, 256))).toMatch(/offset 32, expected 0/);
    expect(await reason(withTensor(12, 0, 256))).toMatch(/not a multiple of the block size 256/);
    const tooMany = Buffer.from("GGUF\x03\0\0\0\xff\xff\xff\xff\xff\xff\xff\xff\0\0\0\0\0\0\0\0", "latin1");
    expect(await reason(tooMany)).toMatch(/tensor count 18446744073709551615 is over the limit/);
  });

  it("gives a reason, never a crash or a hang, for truncations and bit flips of a real file", {
    timeout: 30_000,
  }, async () => {
    const bytes = readFileSync(little);
    for (const variant of damagedVariants(bytes, 48)) {
      const outcome = await ggufScanner.scan(bytesSource(variant.bytes, "m.gguf"));
      if (outcome.couldNotScan === undefined) expect(outcome.findings).toEqual([]);
      else expect(outcome.couldNotScan, variant.label).toMatch(/^malformed GGUF header: /);
    }
    // The writer pads after the last tensor too: cut into the tensor itself.
    expect(await reason(bytes.subarray(0, bytes.length - 40))).toMatch(/ends past the \d+-byte data section/);
  });

  it("is the reader derive's metadata comes from: same checks, metadata kept in either byte order", async () => {
    const rangeOf = (bytes: Buffer) => async (start: number, end: number) => bytes.subarray(start, end + 1);
    for (const path of [little, big]) {
      const bytes = readFileSync(path);
      // 4x8 + 3 + 5 + 2x32 elements (the Q8_0 tensor: 2 rows of one 34-byte block); tokens are checked, not kept.
      expect(await readGgufSummary(rangeOf(bytes), bytes.length), path).toEqual({
        total: 104,
        architecture: "llama",
        context_length: 128,
      });
    }
    // A header the scanner calls malformed gives derive no summary, for the same reason.
    const cut = readFileSync(little).subarray(0, readFileSync(little).length - 40);
    await expect(readGgufSummary(rangeOf(cut), cut.length)).rejects.toThrow(GgufError);
    await expect(readGgufSummary(rangeOf(cut), cut.length)).rejects.toThrow(
      /ends past the \d+-byte data section/,
    );
    expect(await reason(cut)).toMatch(/ends past the \d+-byte data section/);
  });
});
