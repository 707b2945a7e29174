import type { SafetensorsInfo } from "@modelhub/tasks";
import type { RangeReader } from "./gguf.js";

/** The largest safetensors header this hub reads (the format allows 100 MB; real ones are far smaller). */
const MAX_HEADER_BYTES = 25 * 1024 * 1024;

/** Reads a safetensors file's header (8-byte length, then JSON) with two ranged reads and counts parameters. */
export async function readSafetensorsSummary(read: RangeReader, size: number): Promise<SafetensorsInfo> {
  if (size < 8) throw new Error("Not a safetensors file: shorter than its header length.");
  const length = Number((await read(0, 7)).readBigUInt64LE(0));
  if (length > MAX_HEADER_BYTES || 8 + length > size) throw new Error("Invalid safetensors header length.");
  const header = JSON.parse((await read(8, 8 + length - 1)).toString("utf8")) as Record<
    string,
    { dtype?: string; shape?: number[] }
  >;
  const parameters: Record<string, number> = {};
  let total = 0;
  for (const [name, tensor] of Object.entries(header)) {
    if (name === "__metadata__" || !tensor?.dtype || !Array.isArray(tensor.shape)) continue;
    const count = tensor.shape.reduce((product, dim) => product * dim, 1);
    parameters[tensor.dtype] = (parameters[tensor.dtype] ?? 0) + count;
    total += count;
  }
  return { parameters, total };
}
