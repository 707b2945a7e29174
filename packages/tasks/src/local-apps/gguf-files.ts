import { describeGgufQuantLabel, GGML_TYPES, parseGGUFQuantLabel, parseGgufShard } from "../gguf.js";
import type { ModelData } from "../model-data.js";

/** One quantization a GGUF repository offers: a single file, or the shards of a split one. */
export interface GgufQuantization {
  /** e.g. "Q4_K_M", "UD-Q4_K_XL"; the file name when it announces no label. */
  label: string;
  /** Whether `label` is a quantization parsed from the name (false: the name itself). */
  parsed: boolean;
  /** Files, first shard first: tools that load split GGUF files take the first one. */
  files: string[];
  /** Total size in bytes, when the repository listing gives sizes. */
  size?: number;
  bitsPerWeight?: number;
  description?: string;
}

/** Vision projectors and similar companions are not models on their own. */
function isCompanionFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  return name.startsWith("mmproj") || name.includes("-mmproj") || name.includes("imatrix");
}

export function isGgufFile(path: string): boolean {
  return path.toLowerCase().endsWith(".gguf") && !isCompanionFile(path);
}

/** Whether the model is a GGUF repository: GGUF files among its files, or hub-parsed GGUF metadata. */
export function hasGgufFiles(model: Pick<ModelData, "siblings" | "gguf" | "tags">): boolean {
  if (model.siblings?.some((file) => isGgufFile(file.rfilename))) return true;
  return model.gguf !== undefined || model.tags.includes("gguf");
}

/**
 * The quantizations a model's GGUF files offer, smallest bits per weight first (unknown labels last,
 * then by name): the choices of the page's quantization pick.
 */
export function listGgufQuantizations(model: Pick<ModelData, "siblings">): GgufQuantization[] {
  const groups = new Map<string, GgufQuantization>();
  const files = (model.siblings ?? []).filter((file) => isGgufFile(file.rfilename));
  for (const file of files) {
    const path = file.rfilename;
    const label = parseGGUFQuantLabel(path);
    // Shards of one split file share a key; distinct unlabelled files stay distinct.
    const key = label ?? path.replace(/-\d{5}-of-\d{5}\.gguf$/i, "");
    let group = groups.get(key);
    if (group === undefined) {
      const info = label === undefined ? undefined : describeGgufQuantLabel(label);
      const bits = info === undefined ? undefined : GGML_TYPES[info.mainType]?.bitsPerWeight;
      group = {
        label: label ?? path.slice(path.lastIndexOf("/") + 1),
        parsed: label !== undefined,
        files: [],
        ...(bits === undefined ? {} : { bitsPerWeight: bits }),
        ...(info === undefined ? {} : { description: info.description }),
      };
      groups.set(key, group);
    }
    group.files.push(path);
    if (file.size !== undefined) group.size = (group.size ?? 0) + file.size;
  }
  for (const group of groups.values()) {
    group.files.sort(
      (a, b) => (parseGgufShard(a)?.index ?? 0) - (parseGgufShard(b)?.index ?? 0) || a.localeCompare(b),
    );
  }
  return [...groups.values()].sort(
    (a, b) =>
      (a.bitsPerWeight ?? Number.POSITIVE_INFINITY) - (b.bitsPerWeight ?? Number.POSITIVE_INFINITY) ||
      a.label.localeCompare(b.label),
  );
}

/** Labels tried, in order, for the default pick: the usual size/quality balance first. */
const PREFERRED_LABELS = ["Q4_K_M", "UD-Q4_K_XL", "Q4_K_XL", "Q4_K_S", "Q4_0", "IQ4_XS", "Q5_K_M", "Q8_0"];

/** The quantization a page preselects: a balanced 4-bit one when offered, otherwise the smallest. */
export function defaultGgufQuantization(model: Pick<ModelData, "siblings">): GgufQuantization | undefined {
  const all = listGgufQuantizations(model);
  for (const label of PREFERRED_LABELS) {
    const found = all.find((quant) => quant.label === label);
    if (found) return found;
  }
  return all[0];
}
