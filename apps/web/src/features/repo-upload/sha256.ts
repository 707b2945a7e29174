/** Thrown when the person cancels an upload. */
export class UploadCancelledError extends Error {
  override readonly name = "UploadCancelledError";
  constructor() {
    super("Upload cancelled.");
  }
}

/** The sha256 of a file, hashed in a worker; `onProgress` gets the bytes hashed so far. */
export function sha256OfFile(
  file: Blob,
  onProgress: (bytes: number) => void,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new UploadCancelledError());
    const worker = new Worker(new URL("./sha256-worker.ts", import.meta.url), { type: "module" });
    const stop = () => {
      worker.terminate();
      reject(new UploadCancelledError());
    };
    signal.addEventListener("abort", stop, { once: true });
    worker.onmessage = (event: MessageEvent<{ progress?: number; sha256?: string; error?: string }>) => {
      const message = event.data;
      if (message.progress !== undefined) return onProgress(message.progress);
      signal.removeEventListener("abort", stop);
      worker.terminate();
      if (message.sha256) resolve(message.sha256);
      else reject(new Error(`Could not hash a file: ${message.error ?? "unknown error"}`));
    };
    worker.onerror = (event) => {
      signal.removeEventListener("abort", stop);
      worker.terminate();
      reject(new Error(`Could not hash a file: ${event.message}`));
    };
    worker.postMessage({ file });
  });
}
