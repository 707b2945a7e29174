import { HubApiError } from "../../lib/api/hub-fetch.js";
import { UploadCancelledError } from "./sha256.js";

/**
 * PUTs a File with upload progress (fetch has none) and cancel. The browser streams the file from disk:
 * nothing is read into the page's memory.
 */
export function putWithProgress(
  url: string,
  file: Blob,
  headers: Record<string, string>,
  onProgress: (bytes: number) => void,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new UploadCancelledError());
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    const abort = () => xhr.abort();
    signal.addEventListener("abort", abort, { once: true });
    xhr.onload = () => {
      signal.removeEventListener("abort", abort);
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else
        reject(
          new HubApiError(errorText(xhr.responseText) || `Upload failed (${xhr.status}).`, xhr.status, url),
        );
    };
    xhr.onerror = () => {
      signal.removeEventListener("abort", abort);
      reject(new Error("The upload failed: the connection to the hub was lost."));
    };
    xhr.onabort = () => reject(new UploadCancelledError());
    xhr.send(file);
  });
}

function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    return String(parsed.error ?? parsed.message ?? "");
  } catch {
    return body.slice(0, 200);
  }
}
