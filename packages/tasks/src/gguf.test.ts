import { describe, expect, it } from "vitest";
import {
  describeGgufQuantLabel,
  GGML_TYPES,
  GGUF_FILE_TYPES,
  ggmlTypeByCode,
  parseGGUFQuantLabel,
  parseGgufShard,
  SPEC_GGML_TYPE_CODES,
} from "./gguf.js";

describe("GGML_TYPES", () => {
  it("keeps the spec's codes exactly", () => {
    expect(Object.keys(SPEC_GGML_TYPE_CODES)).toHaveLength(29);
    for (const [name, code] of Object.entries(SPEC_GGML_TYPE_CODES)) {
      expect(GGML_TYPES[name]?.code, name).toBe(code);
      expect(ggmlTypeByCode(code)?.name).toBe(name);
      expect(GGML_TYPES[name]?.removed, name).toBeUndefined();
    }
  });

  it("adds the later ggml types", () => {
    expect(GGML_TYPES.TQ1_0?.code).toBe(34);
    expect(GGML_TYPES.TQ2_0?.code).toBe(35);
    expect(GGML_TYPES.MXFP4?.code).toBe(39);
    expect(GGML_TYPES.NVFP4?.code).toBe(40);
    expect(GGML_TYPES.Q4_0_4_4?.removed).toBe(true);
  });

  it("has unique codes and names and a description for each", () => {
    const types = Object.values(GGML_TYPES);
    expect(new Set(types.map((t) => t.code)).size).toBe(types.length);
    for (const type of types) expect(type.description.length, type.name).toBeGreaterThan(10);
  });

  it("derives bits per weight from the block layouts", () => {
    const expected: Record<string, number> = {
      F32: 32,
      F16: 16,
      BF16: 16,
      F64: 64,
      I8: 8,
      Q4_0: 4.5,
      Q4_1: 5,
      Q5_0: 5.5,
      Q5_1: 6,
      Q8_0: 8.5,
      Q2_K: 2.625,
      Q3_K: 3.4375,
      Q4_K: 4.5,
      Q5_K: 5.5,
      Q6_K: 6.5625,
      Q8_K: 9.125,
      IQ2_XXS: 2.0625,
      IQ2_XS: 2.3125,
      IQ2_S: 2.5625,
      IQ3_XXS: 3.0625,
      IQ3_S: 3.4375,
      IQ1_S: 1.5625,
      IQ1_M: 1.75,
      IQ4_NL: 4.5,
      IQ4_XS: 4.25,
      TQ1_0: 1.6875,
      TQ2_0: 2.0625,
      MXFP4: 4.25,
      NVFP4: 4.5,
      Q1_0: 1.125,
    };
    for (const [name, bits] of Object.entries(expected))
      expect(GGML_TYPES[name]?.bitsPerWeight, name).toBe(bits);
  });

  it("has no type for an unassigned code", () => {
    expect(ggmlTypeByCode(999)).toBeUndefined();
    expect(ggmlTypeByCode(-1)).toBeUndefined();
  });
});

describe("parseGGUFQuantLabel", () => {
  // Real file names from public GGUF repositories.
  const cases: Array<[string, string | undefined]> = [
    ["Llama-3.2-1B-Instruct-Q4_K_M.gguf", "Q4_K_M"],
    ["Meta-Llama-3.1-8B-Instruct-Q5_K_S.gguf", "Q5_K_S"],
    ["llama-2-7b-chat.Q3_K_L.gguf", "Q3_K_L"],
    ["tinyllama-1.1b-chat-v1.0.Q4_0.gguf", "Q4_0"],
    ["mistral-7b-instruct-v0.2.Q8_0.gguf", "Q8_0"],
    ["Phi-3-mini-4k-instruct-q4.gguf", undefined],
    ["Phi-3-mini-4k-instruct-fp16.gguf", "F16"],
    ["qwen2.5-7b-instruct-q4_k_m.gguf", "Q4_K_M"],
    ["qwen2.5-7b-instruct-q4_k_m-00001-of-00002.gguf", "Q4_K_M"],
    ["Qwen3-30B-A3B-UD-Q4_K_XL.gguf", "UD-Q4_K_XL"],
    ["UD-Q2_K_XL/DeepSeek-R1-UD-Q2_K_XL-00001-of-00005.gguf", "UD-Q2_K_XL"],
    ["Q4_K_M/DeepSeek-V3-0324-Q4_K_M-00003-of-00009.gguf", "Q4_K_M"],
    ["gemma-2-9b-it-IQ4_XS.gguf", "IQ4_XS"],
    ["Meta-Llama-3-70B-Instruct-IQ2_XXS.gguf", "IQ2_XXS"],
    ["Meta-Llama-3-70B-Instruct-IQ1_M.gguf", "IQ1_M"],
    ["Mistral-Nemo-Instruct-2407-IQ3_M.gguf", "IQ3_M"],
    ["gemma-2-2b-it-Q6_K_L.gguf", "Q6_K_L"],
    ["gemma-3-4b-it-BF16.gguf", "BF16"],
    ["mmproj-model-f16.gguf", "F16"],
    ["gpt-oss-20b-MXFP4.gguf", "MXFP4"],
    ["Qwen3-Coder-30B-A3B-Instruct-MXFP4_MOE.gguf", "MXFP4_MOE"],
    ["bitnet_b1_58-large-TQ2_0.gguf", "TQ2_0"],
    ["Qwen2.5-0.5B-Instruct-Q4_0_4_4.gguf", "Q4_0_4_4"],
    ["ggml-model-IQ4_NL.gguf", "IQ4_NL"],
    ["phi-2.gguf", undefined],
    ["model.gguf", undefined],
  ];
  it.each(cases)("%s -> %s", (fileName, label) => {
    expect(parseGGUFQuantLabel(fileName)).toBe(label);
  });

  it("describes every label it can return", () => {
    for (const [fileName, label] of cases) {
      if (label !== undefined) expect(describeGgufQuantLabel(label), fileName).toBeDefined();
    }
    for (const type of Object.values(GGUF_FILE_TYPES))
      expect(GGML_TYPES[type.mainType], type.label).toBeDefined();
  });
});

describe("parseGgufShard", () => {
  it("reads shard positions", () => {
    expect(parseGgufShard("a-Q4_K_M-00002-of-00003.gguf")).toEqual({ index: 2, total: 3 });
    expect(parseGgufShard("a-Q4_K_M.gguf")).toBeUndefined();
  });
});
