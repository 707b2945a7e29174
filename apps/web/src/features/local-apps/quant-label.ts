import type { GgufQuantization } from "@modelhub/tasks";

export function formatBytes(bytes: number | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(value >= 100 || unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/** No GGUF quantization spends less than this per weight (the smallest, IQ1_S, about 1.56). */
const MIN_REAL_BITS_PER_WEIGHT = 1;

/**
 * A quantization as the pick lists it: with its files' size and the bits per weight those files really
 * spend (size over the model's parameter count, GGUF's `total`), which tell Q4_K_M from Q4_K_S. Without a
 * size only the base type's nominal figure is known, and the label says it is nominal; so it does when the
 * files are too small to hold the weights (under 1 bit each: a metadata-only demo copy), whose size is shown.
 */
export function quantOptionLabel(quant: GgufQuantization, parameterCount: number | undefined): string {
  const parts = [quant.label];
  const effective =
    quant.size !== undefined && parameterCount ? (quant.size * 8) / parameterCount : undefined;
  if (effective !== undefined && effective >= MIN_REAL_BITS_PER_WEIGHT) {
    parts.push(`${effective.toFixed(2)} bpw`);
  } else if (quant.bitsPerWeight !== undefined) {
    parts.push(`${quant.bitsPerWeight.toFixed(2)} bpw nominal`);
  }
  const size = formatBytes(quant.size);
  if (size) parts.push(size);
  return parts.join(" · ");
}
