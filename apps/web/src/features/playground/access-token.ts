import { useSyncExternalStore } from "react";

/**
 * The reader's hub token for the playground, kept in this page's memory for as long as the page lives:
 * moving between a model's tabs or between models keeps it; a reload forgets it. Never stored, never put
 * in the URL.
 */
let token = "";
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setAccessToken(next: string): void {
  token = next;
  for (const listener of listeners) listener();
}

export function useAccessToken(): [string, (next: string) => void] {
  return [useSyncExternalStore(subscribe, () => token), setAccessToken];
}

/**
 * Why a token cannot be used here, or undefined when it can (or when there is none). The router of this
 * hub takes hub tokens (`hf_…`); the inference client sends any other token straight to the provider,
 * which a page cannot reach ("Failed to fetch").
 */
export function tokenProblem(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.startsWith("hf_")) return undefined;
  return "This is not a hub token: hub tokens start with “hf_”. A provider’s own API key cannot be used here, because the playground calls the provider through this hub’s router. Paste a token of this hub, or leave the field empty.";
}
