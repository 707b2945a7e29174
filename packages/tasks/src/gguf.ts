/**
 * GGUF tensor types (ggml's `ggml_type` enum) and the quantization labels GGUF file names carry.
 * Pure data: bits per weight follow from each type's block layout (bytes per block * 8 / weights per block).
 */

export interface GgmlTypeInfo {
  /** Code stored in a GGUF file's tensor info. */
  code: number;
  name: string;
  description: string;
  /** Weights stored per block. */
  blockSize: number;
  /** Bytes per block. */
  bytesPerBlock: number;
  /** Storage cost per weight, scales included: bytesPerBlock * 8 / blockSize. */
  bitsPerWeight: number;
  /** Codes ggml has retired: readers must reject them, but old files and docs still name them. */
  removed?: true;
}

type Row = [
  code: number,
  name: string,
  blockSize: number,
  bytesPerBlock: number,
  description: string,
  removed?: true,
];

// Spec §3 lists codes 0..30; later codes follow ggml's ggml.h (gaps are retired codes, kept with `removed`).
const ROWS: Row[] = [
  [0, "F32", 1, 4, "32-bit IEEE float, unquantized"],
  [1, "F16", 1, 2, "16-bit IEEE half float"],
  [2, "Q4_0", 32, 18, "4-bit round-to-nearest, one f16 scale per block of 32"],
  [3, "Q4_1", 32, 20, "4-bit with an f16 scale and an f16 minimum per block of 32"],
  [4, "Q4_2", 16, 10, "early 4-bit format with blocks of 16, removed before GGUF existed", true],
  [5, "Q4_3", 16, 12, "early 4-bit format with a minimum, removed before GGUF existed", true],
  [6, "Q5_0", 32, 22, "5-bit round-to-nearest, one f16 scale per block of 32"],
  [7, "Q5_1", 32, 24, "5-bit with an f16 scale and an f16 minimum per block of 32"],
  [8, "Q8_0", 32, 34, "8-bit round-to-nearest, one f16 scale per block of 32"],
  [9, "Q8_1", 32, 36, "8-bit with an f16 scale and the block's sum (used for intermediate results)"],
  [10, "Q2_K", 256, 84, "2-bit k-quant: super-blocks of 256 with 4-bit sub-block scales and minimums"],
  [11, "Q3_K", 256, 110, "3-bit k-quant: super-blocks of 256 with 6-bit sub-block scales"],
  [12, "Q4_K", 256, 144, "4-bit k-quant: super-blocks of 256 with 6-bit sub-block scales and minimums"],
  [13, "Q5_K", 256, 176, "5-bit k-quant: super-blocks of 256 with 6-bit sub-block scales and minimums"],
  [14, "Q6_K", 256, 210, "6-bit k-quant: super-blocks of 256 with 8-bit sub-block scales"],
  [15, "Q8_K", 256, 292, "8-bit k-quant with an f32 scale and partial sums (used for intermediate results)"],
  [16, "IQ2_XXS", 256, 66, "2-bit i-quant on an E8 lattice codebook, smallest 2-bit variant"],
  [17, "IQ2_XS", 256, 74, "2-bit i-quant with 4-bit sub-block scales"],
  [18, "IQ3_XXS", 256, 98, "3-bit i-quant on a lattice codebook, smallest 3-bit variant"],
  [19, "IQ1_S", 256, 50, "1-bit i-quant (about 1.56 bits per weight), needs an importance matrix"],
  [20, "IQ4_NL", 32, 18, "4-bit non-linear quantization with a fixed codebook, blocks of 32"],
  [21, "IQ3_S", 256, 110, "3-bit i-quant with separate signs and scales"],
  [22, "IQ2_S", 256, 82, "2-bit i-quant, larger codebook than IQ2_XS"],
  [23, "IQ4_XS", 256, 136, "4-bit non-linear quantization in super-blocks of 256 with 6-bit scales"],
  [24, "I8", 1, 1, "8-bit integer"],
  [25, "I16", 1, 2, "16-bit integer"],
  [26, "I32", 1, 4, "32-bit integer"],
  [27, "I64", 1, 8, "64-bit integer"],
  [28, "F64", 1, 8, "64-bit IEEE double float"],
  [29, "IQ1_M", 256, 56, "1-bit i-quant with per-block scales (about 1.75 bits per weight)"],
  [30, "BF16", 1, 2, "16-bit brain float (bfloat16), the training precision of most models"],
  [31, "Q4_0_4_4", 32, 18, "Q4_0 repacked 4x4 for ARM NEON; now repacked at load time instead", true],
  [32, "Q4_0_4_8", 32, 18, "Q4_0 repacked 4x8 for ARM i8mm; now repacked at load time instead", true],
  [33, "Q4_0_8_8", 32, 18, "Q4_0 repacked 8x8 for ARM SVE; now repacked at load time instead", true],
  [34, "TQ1_0", 256, 54, "ternary (-1, 0, +1) weights packed 5 per byte, for BitNet-style models"],
  [35, "TQ2_0", 256, 66, "ternary weights stored in 2 bits, for BitNet-style models"],
  [36, "IQ4_NL_4_4", 32, 18, "IQ4_NL repacked 4x4; now repacked at load time instead", true],
  [37, "IQ4_NL_4_8", 32, 18, "IQ4_NL repacked 4x8; now repacked at load time instead", true],
  [38, "IQ4_NL_8_8", 32, 18, "IQ4_NL repacked 8x8; now repacked at load time instead", true],
  [39, "MXFP4", 32, 17, "OCP microscaling FP4: E2M1 values with one E8M0 scale per block of 32"],
  [40, "NVFP4", 64, 36, "NVIDIA FP4: E2M1 values with a UE4M3 scale per 16 weights"],
  [41, "Q1_0", 128, 18, "1-bit signs with one f16 scale per block of 128"],
  [42, "Q2_0", 64, 18, "2-bit values with one f16 scale per block of 64"],
];

/** Every ggml tensor type, keyed by name, in code order. */
export const GGML_TYPES: Readonly<Record<string, GgmlTypeInfo>> = Object.fromEntries(
  ROWS.map(([code, name, blockSize, bytesPerBlock, description, removed]) => [
    name,
    {
      code,
      name,
      description,
      blockSize,
      bytesPerBlock,
      bitsPerWeight: (bytesPerBlock * 8) / blockSize,
      ...(removed ? { removed } : {}),
    },
  ]),
);

const BY_CODE = new Map(Object.values(GGML_TYPES).map((type) => [type.code, type]));

/** The type stored under `code` in a GGUF file, or undefined for a code ggml never assigned. */
export function ggmlTypeByCode(code: number): GgmlTypeInfo | undefined {
  return BY_CODE.get(code);
}

/** The codes spec §3 fixes, exactly as it lists them. */
export const SPEC_GGML_TYPE_CODES: Readonly<Record<string, number>> = {
  F32: 0,
  F16: 1,
  Q4_0: 2,
  Q4_1: 3,
  Q5_0: 6,
  Q5_1: 7,
  Q8_0: 8,
  Q8_1: 9,
  Q2_K: 10,
  Q3_K: 11,
  Q4_K: 12,
  Q5_K: 13,
  Q6_K: 14,
  Q8_K: 15,
  IQ2_XXS: 16,
  IQ2_XS: 17,
  IQ3_XXS: 18,
  IQ1_S: 19,
  IQ4_NL: 20,
  IQ3_S: 21,
  IQ2_S: 22,
  IQ4_XS: 23,
  I8: 24,
  I16: 25,
  I32: 26,
  I64: 27,
  F64: 28,
  IQ1_M: 29,
  BF16: 30,
};

/**
 * Quantization labels in GGUF file names ("Q4_K_M", "IQ3_XS", "UD-Q4_K_XL"...). A label names a recipe:
 * most tensors use `mainType`, a few sensitive ones (embeddings, attention output) use a larger type.
 */
export interface GgufFileType {
  label: string;
  mainType: string;
  description: string;
}

const FILE_TYPE_ROWS: Array<[label: string, mainType: string, description: string]> = [
  ["F32", "F32", "unquantized 32-bit floats"],
  ["F16", "F16", "16-bit floats, no quality loss for most models"],
  ["BF16", "BF16", "bfloat16, the model's training precision"],
  ["Q8_0", "Q8_0", "8-bit, practically lossless"],
  ["Q6_K", "Q6_K", "6-bit k-quant, near lossless"],
  ["Q5_K_M", "Q5_K", "5-bit k-quant, medium: very low quality loss"],
  ["Q5_K_S", "Q5_K", "5-bit k-quant, small"],
  ["Q5_0", "Q5_0", "legacy 5-bit"],
  ["Q5_1", "Q5_1", "legacy 5-bit with minimums"],
  ["Q4_K_M", "Q4_K", "4-bit k-quant, medium: the usual balance of size and quality"],
  ["Q4_K_S", "Q4_K", "4-bit k-quant, small"],
  ["Q4_0", "Q4_0", "legacy 4-bit, fast on ARM CPUs"],
  ["Q4_1", "Q4_1", "legacy 4-bit with minimums"],
  ["IQ4_NL", "IQ4_NL", "4-bit non-linear, blocks of 32"],
  ["IQ4_XS", "IQ4_XS", "4-bit non-linear, about 4.25 bits per weight"],
  ["Q3_K_L", "Q3_K", "3-bit k-quant, large"],
  ["Q3_K_M", "Q3_K", "3-bit k-quant, medium"],
  ["Q3_K_S", "Q3_K", "3-bit k-quant, small"],
  ["IQ3_M", "IQ3_S", "3-bit i-quant, medium"],
  ["IQ3_S", "IQ3_S", "3-bit i-quant, small"],
  ["IQ3_XS", "IQ3_XXS", "3-bit i-quant, extra small"],
  ["IQ3_XXS", "IQ3_XXS", "3-bit i-quant, smallest"],
  ["Q2_K", "Q2_K", "2-bit k-quant: noticeable quality loss"],
  ["Q2_K_S", "Q2_K", "2-bit k-quant, small"],
  ["IQ2_M", "IQ2_S", "2-bit i-quant, medium"],
  ["IQ2_S", "IQ2_S", "2-bit i-quant, small"],
  ["IQ2_XS", "IQ2_XS", "2-bit i-quant, extra small"],
  ["IQ2_XXS", "IQ2_XXS", "2-bit i-quant, smallest"],
  ["IQ1_M", "IQ1_M", "1-bit i-quant, medium: only for very large models"],
  ["IQ1_S", "IQ1_S", "1-bit i-quant, small: only for very large models"],
  ["TQ1_0", "TQ1_0", "ternary, 1.69 bits per weight"],
  ["TQ2_0", "TQ2_0", "ternary, 2.06 bits per weight"],
  ["MXFP4_MOE", "MXFP4", "MXFP4 expert weights, other tensors at higher precision"],
  ["MXFP4", "MXFP4", "OCP microscaling FP4"],
  ["NVFP4", "NVFP4", "NVIDIA FP4"],
  ["Q1_0", "Q1_0", "1-bit signs with a scale per 128 weights"],
  ["Q4_0_4_4", "Q4_0", "Q4_0 pre-repacked for ARM (retired format)"],
  ["Q4_0_4_8", "Q4_0", "Q4_0 pre-repacked for ARM (retired format)"],
  ["Q4_0_8_8", "Q4_0", "Q4_0 pre-repacked for ARM (retired format)"],
  // Community recipes that keep more tensors at higher precision ("L", "XL"; "UD-" is Unsloth Dynamic).
  ["Q6_K_L", "Q6_K", "Q6_K with Q8_0 embeddings and output"],
  ["Q5_K_L", "Q5_K", "Q5_K_M with Q8_0 embeddings and output"],
  ["Q4_K_L", "Q4_K", "Q4_K_M with Q8_0 embeddings and output"],
  ["Q3_K_XL", "Q3_K", "Q3_K with larger sensitive tensors"],
  ["Q2_K_L", "Q2_K", "Q2_K with Q8_0 embeddings and output"],
  ["Q8_K_XL", "Q8_0", "8-bit with the most sensitive tensors kept at 16 bits"],
  ["Q6_K_XL", "Q6_K", "6-bit with larger sensitive tensors"],
  ["Q5_K_XL", "Q5_K", "5-bit with larger sensitive tensors"],
  ["Q4_K_XL", "Q4_K", "4-bit with larger sensitive tensors"],
  ["Q2_K_XL", "Q2_K", "2-bit with larger sensitive tensors"],
];

/** Known file-name quantization labels, keyed by label (upper case, without a "UD-" prefix). */
export const GGUF_FILE_TYPES: Readonly<Record<string, GgufFileType>> = Object.fromEntries(
  FILE_TYPE_ROWS.map(([label, mainType, description]) => [label, { label, mainType, description }]),
);

/** The description of a parsed label, "UD-" prefix included. */
export function describeGgufQuantLabel(label: string): GgufFileType | undefined {
  return GGUF_FILE_TYPES[label.toUpperCase().replace(/^UD-/, "")];
}

const SHARD_SUFFIX = /-(\d{5})-of-(\d{5})\.gguf$/i;

/** Shard position of a split GGUF file ("-00001-of-00003.gguf"), or undefined for a single file. */
export function parseGgufShard(fileName: string): { index: number; total: number } | undefined {
  const match = SHARD_SUFFIX.exec(fileName);
  if (!match) return undefined;
  return { index: Number(match[1]), total: Number(match[2]) };
}

// A quantization label standing as a whole word of the name: separated by "-", ".", "_", "/" or a bound.
const QUANT_LABEL =
  /(?<=^|[-._/\s])((?:UD-)?(?:I?Q[1-8]_(?:K(?:_(?:XXS|XS|S|M|L|XL))?|[01](?:_[48]_[48])?|NL|XXS|XS|S|M)|TQ[12]_0|MXFP4(?:_MOE)?|NVFP4|BF16|FP?16|FP?32))(?=$|[-._/\s])/gi;

/**
 * The quantization a GGUF file name announces, upper-cased ("Llama-3.2-1B-Instruct-Q4_K_M.gguf" -> "Q4_K_M",
 * "model-ud-q4_k_xl-00001-of-00002.gguf" -> "UD-Q4_K_XL"), or undefined when it names none.
 * The last label in the path wins: names put the quantization last, folders repeat it.
 */
export function parseGGUFQuantLabel(fileName: string): string | undefined {
  const base = fileName.replace(SHARD_SUFFIX, "").replace(/\.gguf$/i, "");
  let last: string | undefined;
  for (const match of base.matchAll(QUANT_LABEL)) last = match[1];
  if (last === undefined) return undefined;
  const label = last.toUpperCase();
  return label === "FP16" ? "F16" : label === "FP32" ? "F32" : label;
}
