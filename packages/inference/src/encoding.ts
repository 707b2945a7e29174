/** Binary helpers that work in browsers, Node and edge runtimes (no Buffer). */

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  const chunk = 0x8000; // fromCharCode's argument list must stay small
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export async function blobToBase64(blob: Blob): Promise<string> {
  return bytesToBase64(new Uint8Array(await blob.arrayBuffer()));
}

export async function blobToDataUrl(blob: Blob): Promise<string> {
  return `data:${blob.type || "application/octet-stream"};base64,${await blobToBase64(blob)}`;
}

export function base64ToBlob(base64: string, type: string): Blob {
  return new Blob([base64ToBytes(base64) as BlobPart], { type });
}

export function dataUrlToBlob(url: string): Blob {
  const comma = url.indexOf(",");
  const meta = url.slice(5, comma); // after "data:"
  const type = meta.split(";")[0] || "application/octet-stream";
  const payload = url.slice(comma + 1);
  if (meta.endsWith(";base64")) return base64ToBlob(payload, type);
  return new Blob([decodeURIComponent(payload)], { type });
}

export const isBlob = (value: unknown): value is Blob => typeof Blob !== "undefined" && value instanceof Blob;

export const isBinary = (value: unknown): value is Blob | ArrayBuffer | Uint8Array =>
  isBlob(value) || value instanceof ArrayBuffer || ArrayBuffer.isView(value);
