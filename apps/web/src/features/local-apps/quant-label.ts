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
 * Whether a quantization's files can hold the model's weights: false when they spend under 1 bit a weight
 * (a metadata-only demo copy). Unknown size or parameter count: true, nothing says otherwise.
 */
export function holdsWeights(
  quant: Pick<GgufQuantization, "size">,
  parameterCount: number | undefined,
): boolean {
  if (quant.size === undefined || !parameterCount) return true;
  return (quant.size * 8) / parameterCount >= MIN_REAL_BITS_PER_WEIGHT;
}

/**
 * A quantization as the pick lists it: with its files' size and the bits per weight those files really
 * spend (size over the model's parameter count, GGUF's `total`), which tell Q4_K_M from Q4_K_S. Without a
 * size only the base type's nominal figure is known, and the label says it is nominal; so it does when the
 * files are too small to hold the weights (under 1 bit each: a metadata-only demo copy), whose size is then
 * said to be metadata only: "4.2 KB" alone would read as the quantization's size.
 */
export function quantOptionLabel(quant: GgufQuantization, parameterCount: number | undefined): string {
  const parts = [quant.label];
  const effective =
    quant.size !== undefined && parameterCount ? (quant.size * 8) / parameterCount : undefined;
  const withWeights = holdsWeights(quant, parameterCount);
  if (effective !== undefined && withWeights) {
    parts.push(`${effective.toFixed(2)} bpw`);
  } else if (quant.bitsPerWeight !== undefined) {
    parts.push(`${quant.bitsPerWeight.toFixed(2)} bpw nominal`);
  }
  const size = formatBytes(quant.size);
  if (size) parts.push(withWeights ? size : `${size} here: metadata only, no weights`);
  return parts.join(" · ");
}
