import { GgufError, readGgufHeader } from "../derive/gguf-header.js";
import { readRange, TruncatedError } from "./read-range.js";
import type { ContentScanner } from "./scan-report.js";

/**
 * Checks a GGUF header for sanity with the hub's one GGUF reader (derive/gguf-header.ts, shared with the
 * metadata derive shows): a file that passes cannot send a reader out of bounds. The header is read by
 * windows of 1 MiB; tensor data is never read.
 *
 * A malformed header is "could not scan" with the reason: GGUF holds no code, and llama.cpp refuses such a
 * file, so there is nothing to call unsafe, only a file we could not vouch for.
 */

export { GGML_TYPE_SIZES, GGUF_LIMITS } from "../derive/gguf-header.js";

export const ggufScanner: ContentScanner = {
  id: "gguf",
  appliesTo(path, head) {
    return path.toLowerCase().endsWith(".gguf") || head.subarray(0, 4).toString("latin1") === "GGUF";
  },
  async scan(source) {
    try {
      await readGgufHeader((start, end) => readRange(source, start, end - start + 1), source.size);
      return { findings: [] };
    } catch (error) {
      if (error instanceof GgufError || error instanceof TruncatedError) {
        return { findings: [], couldNotScan: `malformed GGUF header: ${error.message}` };
      }
      throw error;
    }
  },
};
