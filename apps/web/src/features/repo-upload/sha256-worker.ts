/// <reference lib="webworker" />
import { createSHA256 } from "hash-wasm";

/**
 * Hashes a File in a worker, chunk by chunk from its stream: the page's thread stays free and memory
 * holds one chunk at a time whatever the file's size. Posts `{progress}` as bytes go and `{sha256}` at the end.
 */
self.onmessage = async (event: MessageEvent<{ file: Blob }>) => {
  try {
    const hasher = await createSHA256();
    hasher.init();
    const reader = event.data.file.stream().getReader();
    let done = 0;
    let lastPost = 0;
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      hasher.update(chunk.value);
      done += chunk.value.byteLength;
      if (done - lastPost >= 8 * 1024 * 1024) {
        lastPost = done;
        self.postMessage({ progress: done });
      }
    }
    self.postMessage({ sha256: hasher.digest("hex") });
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
