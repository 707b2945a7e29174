import { parseGGUFQuantLabel, parseGgufShard } from "../gguf.js";
import type { ModelData } from "../model-data.js";
import { defaultGgufQuantization, listGgufQuantizations } from "./gguf-files.js";

/** The GGUF file a snippet runs and the quantization label tools accept after "repo:". */
export interface QuantChoice {
  /** First file of the quantization (first shard for split files). */
  file?: string;
  /** All files of the quantization (every shard). */
  files: string[];
  /** Parsed label ("Q4_K_M"), when the file name announces one. */
  label?: string;
}

/**
 * Resolves the page's pick (`quantFilePath`) or, without one, the default quantization. A picked path that
 * is not one of the model's GGUF files is still honoured (a record may list no files): it stays a quoted
 * value in the snippet, never code.
 */
export function chooseQuant(model: ModelData, quantFilePath?: string): QuantChoice {
  if (quantFilePath !== undefined && quantFilePath !== "") {
    const label = parseGGUFQuantLabel(quantFilePath);
    const group = listGgufQuantizations(model).find((quant) => quant.files.includes(quantFilePath));
    const files = group?.files ?? [quantFilePath];
    const first = parseGgufShard(quantFilePath) === undefined ? quantFilePath : files[0];
    return { file: first, files, ...(label === undefined ? {} : { label }) };
  }
  const quant = defaultGgufQuantization(model);
  if (quant === undefined) return { files: [] };
  return { file: quant.files[0], files: quant.files, ...(quant.parsed ? { label: quant.label } : {}) };
}
